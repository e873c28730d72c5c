// The Python operations the airline tools apply to raw model-supplied arguments (tool arguments reach the
// reference's methods unvalidated): arithmetic with int/float kinds, len(), iteration, `all dicts → models`.
import { PyError, add, isPlainDict, isPyMap, mul, pyRepr, pyTypeName, sub } from '../../src/core/py/index.ts';
import type { PyNumber, PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import type { z } from 'zod';

const asToolError = <T>(op: () => T): T => {
  try {
    return op();
  } catch (e) {
    if (e instanceof PyError) throw new ToolError(e.message);
    throw e;
  }
};

/** `str(KeyError(key))`: the repr of the missing key. */
export const pyKeyError = (key: PyValue | undefined): string => pyRepr(key ?? null);

/** `a + b`, `a - b`, `a * b` with Python's kinds (`int + float → float`) and TypeError texts. */
export const pyAdd = (a: PyValue, b: PyValue): number | PyValue => asToolError(() => add(a as PyNumber, b as PyNumber));
export const pySub = (a: PyValue, b: PyValue): number | PyValue => asToolError(() => sub(a as PyNumber, b as PyNumber));
export const pyMul = (a: PyValue, b: PyValue): number | PyValue => asToolError(() => mul(a as PyNumber, b as PyNumber));

/** `for x in value`: lists, str (characters) and dicts (keys); anything else is not iterable. */
export const pyIter = (value: PyValue | undefined): PyValue[] => {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isPyMap(value)) return [...value.keys()];
  if (isPlainDict(value)) return Object.keys(value);
  throw new ToolError(`'${pyTypeName(value)}' object is not iterable`);
};

/** `len(value)`. */
export const pyLen = (value: PyValue | undefined): number => {
  if (Array.isArray(value) || typeof value === 'string') return [...(value as string | PyValue[])].length;
  if (isPyMap(value)) return value.size;
  if (isPlainDict(value)) return Object.keys(value).length;
  throw new ToolError(`object of type '${pyTypeName(value)}' has no len()`);
};

/**
 * `if all(isinstance(x, dict) for x in items): items = [Model(**x) for x in items]`: the models, or — when some
 * item is not a dict — the argument as sent and its items (the reference then works on those, which fails at the first
 * attribute use or model validation).
 */
export const modelsIfAllDicts = <S extends z.ZodType>(
  modelName: string,
  schema: S,
  items: PyValue | undefined,
): { models: z.output<S>[] } | { raw: PyValue; items: PyValue[] } => {
  const list = pyIter(items);
  if (!list.every((item) => isPlainDict(item) || isPyMap(item))) return { raw: items ?? null, items: list };
  return { models: list.map((item) => constructModel(modelName, schema, item)) };
};

/** `item.attribute` on a raw (unconverted) item: Python's AttributeError. */
export const noAttribute = (item: PyValue | undefined, attribute: string): never => {
  throw new ToolError(`'${pyTypeName(item)}' object has no attribute '${attribute}'`);
};
