// The few Python operations the telecom tools apply to raw model-supplied arguments, raising the TypeError /
// AttributeError texts CPython would (tool arguments reach the reference's methods unvalidated).
import { isPyFloat, pyTypeName } from '../../src/core/py/index.ts';
import type { PyNumber, PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';

const isNumber = (v: PyValue | undefined): v is PyNumber =>
  typeof v === 'number' || typeof v === 'boolean' || isPyFloat(v);

/** `value.<method>` on a value that should be a str: AttributeError otherwise. */
export const requireStr = (value: PyValue | undefined, method: string): string => {
  if (typeof value !== 'string') throw new ToolError(`'${pyTypeName(value)}' object has no attribute '${method}'`);
  return value;
};

/** A number on the left of a comparison with an int: TypeError otherwise. */
export const requireComparableNumber = (value: PyValue | undefined, op: string): PyNumber => {
  if (!isNumber(value)) throw new ToolError(`'${op}' not supported between instances of '${pyTypeName(value)}' and 'int'`);
  return value;
};

/** `dict.get(key)` on a dict keyed by str: unhashable keys raise, other non-str keys are simply absent. */
export const dictGet = <T>(map: Readonly<Record<string, T>>, key: PyValue | undefined): T | undefined => {
  if (Array.isArray(key) || (typeof key === 'object' && key !== null && !isPyFloat(key))) {
    throw new ToolError(`unhashable type: '${pyTypeName(key)}'`);
  }
  return typeof key === 'string' && Object.hasOwn(map, key) ? map[key] : undefined;
};

/** The end of `seq[:limit]` for a length-`length` sequence, with Python's slice-index rules. */
export const sliceEnd = (length: number, limit: PyValue | undefined): number => {
  if (limit === null || limit === undefined) return length;
  if (typeof limit === 'boolean') return Number(limit);
  if (typeof limit !== 'number' || !Number.isInteger(limit)) {
    throw new ToolError('slice indices must be integers or None or have an __index__ method');
  }
  return limit < 0 ? Math.max(0, length + limit) : Math.min(limit, length);
};

/** Python truthiness of a value. */
export const truthy = (value: PyValue | undefined): boolean => {
  if (value === null || value === undefined) return false;
  if (isPyFloat(value)) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
};
