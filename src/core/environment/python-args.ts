// Python operations the domain tools apply to raw model-supplied arguments. Tool arguments reach the reference's
// methods unvalidated, so `len`, iteration, arithmetic, attribute use and truthiness must fail (or succeed) with
// exactly CPython's outcome and text.
import type { z } from 'zod';
import {
  PyError,
  add,
  compare,
  dictKeys,
  isPyDict,
  isPyFloat,
  mul,
  pyEquals,
  pyRepr,
  pyTypeName,
  sub,
} from '../py/index.ts';
import type { PyNumber, PyValue } from '../py/index.ts';
import { ToolError } from './errors.ts';
import { constructModel } from './model.ts';

type Arg = PyValue | undefined;

/** Runs a py-helper operation, turning its Python exception into the tool's error message. */
const asToolError = <T>(op: () => T): T => {
  try {
    return op();
  } catch (e) {
    if (e instanceof PyError) throw new ToolError(e.message);
    throw e;
  }
};

/** The items `for x in value` visits: list items, str characters, dict keys; else Python's TypeError. */
export const iterate = (value: Arg): readonly PyValue[] => {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isPyDict(value)) return dictKeys(value);
  throw new ToolError(`'${pyTypeName(value)}' object is not iterable`);
};

/** `len(value)`. */
export const pyLen = (value: Arg): number => {
  if (Array.isArray(value) || typeof value === 'string' || isPyDict(value)) return iterate(value).length;
  throw new ToolError(`object of type '${pyTypeName(value)}' has no len()`);
};

/** `value.count(x)` for a list or str argument (a dict has no `count`). */
export const pyCount = (value: Arg, x: PyValue): number => {
  if (isPyDict(value)) throw new ToolError("'dict' object has no attribute 'count'");
  return iterate(value).filter((item) => pyEquals(item, x)).length;
};

/** `zip(a, b)`. */
export const pyZip = (a: Arg, b: Arg): [PyValue, PyValue][] => {
  const left = iterate(a);
  const right = iterate(b);
  return left.slice(0, Math.min(left.length, right.length)).map((x, i) => [x, right[i]!]);
};

/** `sorted(value)`: Python's sort is stable like Array.prototype.sort; only the order relation matters. */
export const pySorted = (value: Arg): PyValue[] => asToolError(() => [...iterate(value)].sort((x, y) => compare(x, y)));

/** `a + b`, `a - b`, `a * b` with Python's kinds (`int + float → float`) and TypeError texts. */
export const pyAdd = (a: PyValue, b: PyValue): number | PyValue => asToolError(() => add(a as PyNumber, b as PyNumber));
export const pySub = (a: PyValue, b: PyValue): number | PyValue => asToolError(() => sub(a as PyNumber, b as PyNumber));
export const pyMul = (a: PyValue, b: PyValue): number | PyValue => asToolError(() => mul(a as PyNumber, b as PyNumber));

/** `str(KeyError(key))`: the repr of the missing key. */
export const pyKeyError = (key: Arg): string => pyRepr(key ?? null);

/** `item.attribute` on a value without it: Python's AttributeError. */
export const noAttribute = (item: Arg, attribute: string): never => {
  throw new ToolError(`'${pyTypeName(item)}' object has no attribute '${attribute}'`);
};

/** `value.<method>` on a value that should be a str: AttributeError otherwise. */
export const requireStr = (value: Arg, method: string): string =>
  typeof value === 'string' ? value : noAttribute(value, method);

const isNumber = (v: Arg): v is PyNumber => typeof v === 'number' || typeof v === 'boolean' || isPyFloat(v);

/** A number on the left of a comparison with an int: TypeError otherwise. */
export const requireComparableNumber = (value: Arg, op: string): PyNumber => {
  if (!isNumber(value)) throw new ToolError(`'${op}' not supported between instances of '${pyTypeName(value)}' and 'int'`);
  return value;
};

/** The end of `seq[:limit]` for a length-`length` sequence, with Python's slice-index rules. */
export const sliceEnd = (length: number, limit: Arg): number => {
  if (limit === null || limit === undefined) return length;
  if (typeof limit === 'boolean') return Number(limit);
  if (typeof limit !== 'number' || !Number.isInteger(limit)) {
    throw new ToolError('slice indices must be integers or None or have an __index__ method');
  }
  return limit < 0 ? Math.max(0, length + limit) : Math.min(limit, length);
};

/** Python truthiness of a value. */
export const truthy = (value: Arg): boolean => {
  if (value === null || value === undefined) return false;
  if (isPyFloat(value)) return value.value !== 0;
  if (typeof value === 'object') return pyLen(value) > 0;
  return Boolean(value);
};

/**
 * `if all(isinstance(x, dict) for x in items): items = [Model(**x) for x in items]`: the models, or — when some
 * item is not a dict — the argument as sent and its items (the reference then works on those, which fails at
 * the first attribute use or model validation).
 */
export const modelsIfAllDicts = <S extends z.ZodType>(
  modelName: string,
  schema: S,
  items: Arg,
): { models: z.output<S>[] } | { raw: PyValue; items: PyValue[] } => {
  const list = [...iterate(items)];
  if (!list.every((item) => isPyDict(item))) return { raw: items ?? null, items: list };
  return { models: list.map((item) => constructModel(modelName, schema, item)) };
};
