// Zod types for Python value kinds: floats stay PyFloat, ints stay integral numbers.
import { z } from 'zod';
import { PyFloat, isPlainDict, isPyFloat, pyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';

/**
 * Reports a value a pydantic field rejects, with pydantic's error type and message (rendered by
 * `constructModel`, environment/model.ts).
 */
const rejectAs = (ctx: z.core.$RefinementCtx, pydanticType: string, message: string): never => {
  ctx.addIssue({ code: 'custom', message, params: { pydanticType } });
  return z.NEVER;
};

const INT_TEXT = /^[+-]?\d+(?:_\d+)*(?:\.0+)?$/;
const FLOAT_TEXT = /^[+-]?(?:(?:\d+(?:_\d+)*)?\.?\d+(?:_\d+)*|\d+(?:_\d+)*\.)(?:[eE][+-]?\d+)?$/;
const FLOAT_WORDS: Readonly<Record<string, number>> = { inf: Infinity, infinity: Infinity, nan: NaN };

/** `float(text)` as pydantic parses a str for a float field; `undefined` when it cannot. */
const parseFloatText = (text: string): number | undefined => {
  const t = text.trim();
  if (FLOAT_TEXT.test(t)) return Number(t.replaceAll('_', ''));
  const sign = t.startsWith('-') ? -1 : 1;
  const word = t.replace(/^[+-]/, '').toLowerCase();
  return Object.hasOwn(FLOAT_WORDS, word) ? sign * FLOAT_WORDS[word]! : undefined;
};

/**
 * A number field of an API body: a float literal (a PyFloat once parsed) is read as its number, so an integer
 * field takes a whole `1.0` as pydantic does and refuses `1.5` by its own rule (`expected int`).
 */
export const pyNumber = <S extends z.ZodType>(schema: S) => z.preprocess((v: unknown) => (isPyFloat(v) ? v.value : v), schema);

/** A pydantic `float` field (lax mode): ints, bools and numeric str become a PyFloat. */
export const PyFloatSchema = z.custom<PyFloat | number>(() => true).meta({ type: 'number' }).transform((v: unknown, ctx): PyFloat => {
  if (isPyFloat(v)) return v;
  if (typeof v === 'number' || typeof v === 'boolean') return pyFloat(Number(v));
  if (typeof v === 'string') {
    const n = parseFloatText(v);
    return n === undefined ? rejectAs(ctx, 'float_parsing', 'Input should be a valid number, unable to parse string as a number') : pyFloat(n);
  }
  return rejectAs(ctx, 'float_type', 'Input should be a valid number');
}).meta({ type: 'number' });

/** A pydantic `int` field (lax mode): integral floats, bools and integer str become an int. */
export const PyIntSchema = z.custom<PyFloat | number>(() => true).meta({ type: 'integer' }).transform((v: unknown, ctx): number => {
  if (typeof v === 'boolean') return Number(v);
  if (typeof v === 'number' || isPyFloat(v)) {
    const n = isPyFloat(v) ? v.value : v;
    if (!Number.isFinite(n)) return rejectAs(ctx, 'finite_number', 'Input should be a finite number');
    if (!Number.isInteger(n)) return rejectAs(ctx, 'int_from_float', 'Input should be a valid integer, got a number with a fractional part');
    return n === 0 ? 0 : n;
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (!INT_TEXT.test(t)) return rejectAs(ctx, 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer');
    const n = Number.parseInt(t.replaceAll('_', ''), 10);
    return n === 0 ? 0 : n;
  }
  return rejectAs(ctx, 'int_type', 'Input should be a valid integer');
}).meta({ type: 'integer' });

const BOOL_WORDS: Readonly<Record<string, boolean>> = {
  '0': false, off: false, f: false, false: false, n: false, no: false,
  '1': true, on: true, t: true, true: true, y: true, yes: true,
};

/** A pydantic `bool` field (lax mode): 0/1 and the usual yes/no words (any case) are accepted. */
export const PyBoolSchema = z.custom<boolean>(() => true).meta({ type: 'boolean' }).transform((v: unknown, ctx): boolean => {
  if (typeof v === 'boolean') return v;
  const n = isPyFloat(v) ? v.value : v;
  if (typeof n === 'number') {
    if (n === 0 || n === 1) return n === 1;
    return Number.isInteger(n)
      ? rejectAs(ctx, 'bool_parsing', 'Input should be a valid boolean, unable to interpret input')
      : rejectAs(ctx, 'bool_type', 'Input should be a valid boolean');
  }
  if (typeof v === 'string') {
    const word = v.toLowerCase();
    if (Object.hasOwn(BOOL_WORDS, word)) return BOOL_WORDS[word]!;
    return rejectAs(ctx, 'bool_parsing', 'Input should be a valid boolean, unable to interpret input');
  }
  return rejectAs(ctx, 'bool_type', 'Input should be a valid boolean');
}).meta({ type: 'boolean' });

/** Any JSON-compatible Python value, passed through unchanged (number kinds preserved). */
/** Any JSON value (in JSON Schema terms: no constraint). */
export const PyValueSchema = z.custom<PyValue>(() => true).meta({ description: 'Any JSON value' });

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
