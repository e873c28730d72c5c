// SHA-256 of text and the reference's DB hash (tau2 utils get_dict_hash: sha256 of sorted-key json.dumps).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { dumpsPy } from './json.ts';
import type { PyInput } from './value.ts';

const utf8 = new TextEncoder();

interface NodeCrypto {
  createHash(algorithm: 'sha256'): { update(text: string, encoding: 'utf8'): { digest(encoding: 'hex'): string } };
}
/**
 * The runtime's native SHA-256 where it is reachable without an import (Node's `process.getBuiltinModule`):
 * a whole-DB text hashes ten times faster than in JavaScript. Elsewhere (a browser, workerd) @noble/hashes.
 */
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as NodeCrypto | undefined;

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`, in JavaScript. */
const sha256HexPortable = (text: string): string => bytesToHex(sha256(utf8.encode(text)));

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export const sha256Hex = (text: string): string =>
  nodeCrypto === undefined ? sha256HexPortable(text) : nodeCrypto.createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * `get_dict_hash(obj)` = `sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()`. The texts of
 * deep-frozen subtrees are remembered, so hashing a copy-on-write DB again encodes only what changed.
 */
export const pyDictHash = (value: PyInput): string => sha256Hex(dumpsPy(value, { sortKeys: true, rememberFrozen: true }));
