// The one JSON rule for text a client sends, over any transport (an HTTP body, a WebSocket message): Python's
// JSON (so `0.0` stays a float), with each key given once: a key given twice is refused rather than read as its
// last value, which would let two readers of the same text see different requests.
import { DuplicateKeyError, parsePyJson } from '../core/py/index.ts';
import type { PyValue } from '../core/py/index.ts';
import type { ApiIssue } from '../api/index.ts';

export type ClientJson =
  | { readonly ok: true; readonly value: PyValue }
  /** `syntax`: not JSON at all (the issue says where); `duplicate_key`: JSON, but a key is given twice. */
  | { readonly ok: false; readonly fault: 'syntax' | 'duplicate_key'; readonly issue: ApiIssue };

export const parseClientJson = (text: string): ClientJson => {
  try {
    return { ok: true, value: parsePyJson(text, { uniqueKeys: true }) };
  } catch (error) {
    if (error instanceof DuplicateKeyError) {
      return { ok: false, fault: 'duplicate_key', issue: { path: [error.path, error.key].filter(Boolean).join('.'), message: 'Duplicate key: give each key once' } };
    }
    return { ok: false, fault: 'syntax', issue: { path: '', message: error instanceof Error ? error.message : String(error) } };
  }
};
