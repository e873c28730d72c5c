// Python dict semantics for DB maps: membership with hashability checks, str() of keys in messages.
import { ToolError } from './errors.ts';
import { isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';

const pyTypeName = (v: PyValue | undefined): string => {
  if (v === null || v === undefined) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (isPyFloat(v)) return 'float';
  switch (typeof v) {
    case 'string': return 'str';
    case 'boolean': return 'bool';
    case 'number': return Number.isInteger(v) ? 'int' : 'float';
    default: return 'dict';
  }
};

/** Python `type(x).__name__` for a raw argument value. */
export const pyTypeOf = pyTypeName;

/**
 * `key in mapping` for a DB dict keyed by str. Non-str keys are never present (the DB keys are all str);
 * unhashable keys raise Python's TypeError text.
 */
export const dictHas = (map: Readonly<Record<string, unknown>>, key: PyValue | undefined): key is string => {
  if (Array.isArray(key) || (typeof key === 'object' && key !== null && !isPyFloat(key))) {
    throw new ToolError(`unhashable type: '${pyTypeName(key)}'`);
  }
  return typeof key === 'string' && Object.hasOwn(map, key);
};
