// The Python value domain shared by the py helpers: JSON-like values with int/float kinds kept apart.
import type { PyFloat } from './float.ts';

/**
 * A Python value as the engine holds it: `int` is an integral JS number, `float` a PyFloat, `bool` a boolean,
 * `None` null, `str` a string, `list` an array and `dict` a plain object (key order = insertion order).
 */
export type PyValue = number | PyFloat | string | boolean | null | PyValue[] | { [key: string]: PyValue };

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
  | { readonly [key: string]: PyInput };

export const isPyJsonable = (v: unknown): v is PyJsonable =>
  typeof v === 'object' && v !== null && typeof (v as { toPyJson?: unknown }).toPyJson === 'function';

/** A plain object (prototype Object.prototype or null), i.e. a Python dict in this representation. */
export const isPlainDict = (v: unknown): v is { readonly [key: string]: PyInput } => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
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
  if (Math.abs(n) < 1e21) return String(n === 0 ? 0 : n);
  return BigInt(n).toString();
};
