// Python dict semantics for DB maps: membership with hashability checks, str() of keys in messages.
import { ToolError } from './errors.ts';
import { dictGet, dictHasKey, isPyFloat, pyTypeName } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';

/**
 * `key in mapping` for a DB dict keyed by str (a plain object or a Map). Non-str keys are never present (the DB keys are all str);
 * unhashable keys raise Python's TypeError text.
 */
export const dictHas = (
  map: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>,
  key: PyValue | undefined,
): key is string => {
  if (Array.isArray(key) || (typeof key === 'object' && key !== null && !isPyFloat(key))) {
    throw new ToolError(`unhashable type: '${pyTypeName(key)}'`);
  }
  return typeof key === 'string' && dictHasKey(map, key);
};

/** `mapping.get(key)` for a DB dict keyed by str, with a raw argument as the key (same checks as `dictHas`). */
export const pyDictGet = <V>(
  map: Readonly<Record<string, V>> | ReadonlyMap<string, V>,
  key: PyValue | undefined,
): V | undefined => (dictHas(map, key) ? dictGet(map, key) : undefined);
