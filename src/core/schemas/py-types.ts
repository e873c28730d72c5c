// Zod types for Python value kinds: floats stay PyFloat, ints stay integral numbers.
import { z } from 'zod';
import { PyFloat, isPlainDict, isPyFloat, pyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';

/** A pydantic `float` field: accepts ints and floats, always yields a PyFloat. */
export const PyFloatSchema = z.custom<PyFloat | number>(
  (v) => isPyFloat(v) || (typeof v === 'number' && Number.isFinite(v)),
  { message: 'Input should be a valid number' },
).transform((v): PyFloat => (isPyFloat(v) ? v : pyFloat(v)));

/** A pydantic `int` field: accepts integral numbers (and integral floats, as pydantic's lax mode does). */
export const PyIntSchema = z.custom<PyFloat | number>(
  (v) => (isPyFloat(v) ? Number.isInteger(v.value) : typeof v === 'number' && Number.isInteger(v)),
  { message: 'Input should be a valid integer' },
).transform((v): number => (isPyFloat(v) ? v.value : v));

/** Any JSON-compatible Python value, passed through unchanged (number kinds preserved). */
export const PyValueSchema = z.custom<PyValue>(() => true);

/** A Python `dict` with string keys and arbitrary values. */
export const PyDictSchema = z.record(z.string(), PyValueSchema);

/**
 * A Python `dict[str, X]` whose keys may look like array indexes (retail's item and product ids): held as a Map
 * so insertion order survives. Accepts a Map (what the JSON decoder yields for such dicts) or a plain object.
 */
export const pyMap = <T extends z.ZodType>(valueSchema: T) =>
  z.preprocess(
    (v) => (isPlainDict(v) ? new Map(Object.entries(v)) : v),
    z.map(z.string(), valueSchema, { error: 'Input should be a valid dictionary' }),
  );

/** `Optional[X] = None`: absent or null → null, so the key is always present when dumped. */
export const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);
