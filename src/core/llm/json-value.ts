// Values as JSON for the AI SDK and the wire: Python values (PyFloat kinds) become plain JSON numbers.
import { isPyFloat } from '../py/index.ts';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A PyValue (or a JSON-like schema) as plain JSON for the SDK's `JSON.stringify`: a PyFloat becomes its number,
 * as `2.0` and `2` are the same JSON number to the provider.
 */
export const toJson = (value: unknown): Json => {
  if (isPyFloat(value)) return value.value;
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, toJson(v)]));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
};
