// Python's checks of a JSON argument value against a tool's signature, for values that need not be dicts:
// `name in value` and `for name in value` as the discoverable-tool wrappers apply them.
import { PyError, dictKeys, isPyDict, pyTypeName } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';

/** `name in value` for a str name: dict keys, list items, substrings; anything else raises TypeError. */
export const holds = (value: PyValue, name: string): boolean => {
  if (isPyDict(value)) return dictKeys(value).includes(name);
  if (Array.isArray(value)) return value.some((item) => item === name);
  if (typeof value === 'string') return value.includes(name);
  throw new PyError('TypeError', `argument of type '${pyTypeName(value)}' is not iterable`);
};

/** `for x in value`: dict keys, list items, characters; anything else raises TypeError. */
export const members = (value: PyValue): PyValue[] => {
  if (isPyDict(value)) return dictKeys(value);
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  throw new PyError('TypeError', `'${pyTypeName(value)}' object is not iterable`);
};
