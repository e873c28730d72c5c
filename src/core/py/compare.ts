// Python `==` and ordering over the value domain (1 == 1.0 == True, dict equality ignores key order).
import { PyError } from './errors.ts';
import { PyFloat, pyTypeName } from './float.ts';
import { dictGet, dictHasKey, dictKeys, isPyDict, isPyJsonable } from './value.ts';
import type { PyInput } from './value.ts';

const isNumeric = (v: unknown): v is number | boolean | PyFloat =>
  typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || v instanceof PyFloat;

const numeric = (v: number | boolean | bigint | PyFloat): number =>
  v instanceof PyFloat ? v.value : Number(v);

/** Container members compare with an identity shortcut first, as CPython's list and dict comparisons do. */
const memberEquals = (a: unknown, b: unknown): boolean => a === b || equals(a, b);

const equals = (a: unknown, b: unknown): boolean => {
  if (isNumeric(a) || isNumeric(b)) return isNumeric(a) && isNumeric(b) && numeric(a) === numeric(b);
  if (a === null || b === null || typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => memberEquals(item, b[i]));
  }
  if (isPyJsonable(a) || isPyJsonable(b)) {
    if (!isPyJsonable(a) || !isPyJsonable(b)) return false;
    return Object.getPrototypeOf(a) === Object.getPrototypeOf(b) && equals(a.toPyJson(), b.toPyJson());
  }
  if (isPyDict(a) && isPyDict(b)) {
    const keys = dictKeys(a);
    if (keys.length !== dictKeys(b).length) return false;
    return keys.every((k) => dictHasKey(b, k) && memberEquals(dictGet<unknown>(a, k), dictGet<unknown>(b, k)));
  }
  return a === b;
};

/**
 * Python `a == b`, deep: numbers by value across int/float/bool, str never equals a number, None only
 * equals None, list order matters, dict key order does not. Objects with `toPyJson` are equal when they
 * share a prototype and their JSON forms are equal.
 */
export const pyEquals = (a: PyInput | undefined, b: PyInput | undefined): boolean => equals(a, b);

const codeUnitKey = (unit: number): number => {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
};

/** Python str ordering (code points, not UTF-16 code units): -1, 0 or 1. */
export const compareStrings = (a: string, b: string): -1 | 0 | 1 => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codeUnitKey(x) < codeUnitKey(y) ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
};

const unorderable = (a: unknown, b: unknown): PyError =>
  new PyError('TypeError', `'<' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);

/**
 * Python ordering as used by `sorted`: numbers by value (NaN is unordered and yields NaN), str by code
 * point, lists lexicographically. Other pairs raise Python's TypeError.
 */
export const compare = (a: PyInput, b: PyInput): number => {
  if (isNumeric(a) && isNumeric(b)) {
    const x = numeric(a);
    const y = numeric(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    const left: readonly PyInput[] = a;
    const right: readonly PyInput[] = b;
    const n = Math.min(left.length, right.length);
    for (let i = 0; i < n; i++) {
      if (!memberEquals(left[i], right[i])) return compare(left[i] as PyInput, right[i] as PyInput);
    }
    return left.length === right.length ? 0 : left.length < right.length ? -1 : 1;
  }
  throw unorderable(a, b);
};
