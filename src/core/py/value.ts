// The Python value domain shared by the py helpers: JSON-like values with int/float kinds kept apart.
import type { PyFloat } from './float.ts';

/**
 * A Python value as the engine holds it: `int` is an integral JS number, `float` a PyFloat, `bool` a boolean,
 * `None` null, `str` a string, `list` an array and `dict` a plain object — or a Map when some key looks like an
 * array index (`"1008292230"`), since a JS object would move such keys first and lose Python's insertion order.
 */
export type PyValue =
  | number
  | PyFloat
  | string
  | boolean
  | null
  | PyValue[]
  | { [key: string]: PyValue }
  | Map<string, PyValue>;

/**
 * A value with no JSON form of its own (a date, a str-Enum member). `toPyJson` plays the part of
 * `json.dumps(default=str)`; the optional hooks give `str()` and `repr()` when they differ from those of
 * the JSON form.
 */
export interface PyJsonable {
  toPyJson(): PyValue;
  toPyStr?(): string;
  toPyRepr?(): string;
}

/** What the serializers and comparisons accept: PyValue, read-only containers and PyJsonable leaves. */
export type PyInput =
  | PyValue
  | PyJsonable
  | readonly PyInput[]
  | { readonly [key: string]: PyInput }
  | ReadonlyMap<string, PyInput>;

export const isPyJsonable = (v: unknown): v is PyJsonable =>
  typeof v === 'object' && v !== null && typeof (v as { toPyJson?: unknown }).toPyJson === 'function';

/** A plain object (prototype Object.prototype or null), i.e. a Python dict in this representation. */
export const isPlainDict = (v: unknown): v is { readonly [key: string]: PyInput } => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** A dict held as a Map (see PyValue). */
export const isPyMap = (v: unknown): v is ReadonlyMap<string, PyInput> => v instanceof Map;

/** A Python dict in either representation: a plain object or a Map. */
export const isPyDict = (v: unknown): v is { readonly [key: string]: PyInput } | ReadonlyMap<string, PyInput> =>
  isPyMap(v) || isPlainDict(v);

/** The keys of a dict in insertion order, whichever its representation. */
export const dictKeys = (d: { readonly [key: string]: unknown } | ReadonlyMap<string, unknown>): string[] =>
  d instanceof Map ? [...d.keys()] : Object.keys(d);

/** The `(key, value)` pairs of a dict in insertion order, whichever its representation. */
export const dictEntries = <V>(d: { readonly [key: string]: V } | ReadonlyMap<string, V>): [string, V][] =>
  d instanceof Map ? [...d.entries()] : Object.entries(d);

/** `d[key]` for a dict in either representation (undefined when absent). */
export const dictGet = <V>(d: { readonly [key: string]: V } | ReadonlyMap<string, V>, key: string): V | undefined => {
  if (d instanceof Map) return (d as ReadonlyMap<string, V>).get(key);
  const obj = d as { readonly [key: string]: V };
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
};

/** `key in d` for a dict in either representation. */
export const dictHasKey = (d: { readonly [key: string]: unknown } | ReadonlyMap<string, unknown>, key: string): boolean =>
  d instanceof Map ? d.has(key) : Object.hasOwn(d, key);

/** A key a JS object would order as an array index: a canonical decimal integer below 2^32 − 1. */
export const isIndexLikeKey = (key: string): boolean =>
  /^(?:0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 4294967295;

/**
 * A dict built from ordered pairs with the representation the decoder uses: a plain object, or a Map when a
 * key is index-like. Later duplicates overwrite the value but keep the first position, as in Python.
 */
export const pyDictFrom = <V>(entries: Iterable<readonly [string, V]>): { [key: string]: V } | Map<string, V> => {
  const list = [...entries];
  if (list.some(([k]) => isIndexLikeKey(k))) return new Map(list);
  const obj: { [key: string]: V } = {};
  for (const [k, v] of list) {
    if (k === '__proto__') Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
    else obj[k] = v;
  }
  return obj;
};

/** The JS type name used in error messages about values outside the domain. */
export const jsTypeName = (v: unknown): string => {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  const ctor = (v as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : 'object';
};

/** Python's `str(int)` for an integral JS number or a bigint (no exponent form, no `-0`). */
export const intRepr = (n: number | bigint): string => {
  if (typeof n === 'bigint') return n.toString();
  // Past 2**53 JavaScript's shortest round-trip form drops digits Python's int keeps: write the exact value.
  if (Number.isSafeInteger(n)) return String(n === 0 ? 0 : n);
  return BigInt(n).toString();
};
