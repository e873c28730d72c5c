// SHA-256 of text and the reference's DB hash (tau2 utils get_dict_hash: sha256 of sorted-key json.dumps).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { dumpsPy } from './json.ts';
import type { PyInput } from './value.ts';

const utf8 = new TextEncoder();

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export const sha256Hex = (text: string): string => bytesToHex(sha256(utf8.encode(text)));

/** `get_dict_hash(obj)` = `sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()`. */
export const pyDictHash = (value: PyInput): string => sha256Hex(dumpsPy(value, { sortKeys: true }));
