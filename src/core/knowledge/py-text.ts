// Python `str.split()` / `str.strip()` on Unicode text: the tokeniser of the reference's BM25 and its blank
// query check. Hand-written because JavaScript's `\s` is a different set (it lacks U+001C–U+001F and U+0085,
// and adds U+FEFF), which would change tokens and therefore scores.
export const PY_WHITESPACE =
  '\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const SPLIT = new RegExp(`[${PY_WHITESPACE}]+`);
const NON_SPACE = new RegExp(`[^${PY_WHITESPACE}]`);

/** `text.split()`: runs of whitespace separate tokens, and no token is empty. */
export const pySplit = (text: string): string[] => text.split(SPLIT).filter((token) => token.length > 0);

/** `not text.strip()`. */
export const isPyBlank = (text: string): boolean => !NON_SPACE.test(text);

/** `text.lower().split()`, the reference's BM25 tokenisation of documents and queries. */
export const bm25Tokens = (text: string): string[] => pySplit(text.toLowerCase());
