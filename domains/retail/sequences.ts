// Python list semantics for the item-id list arguments, which reach the tools unvalidated: a str iterates
// as its characters, `count` and `==` compare by Python equality, `sorted` raises Python's TypeError.
import { ToolError } from '../../src/core/environment/errors.ts';
import { compare, dictKeys, isPyDict, isPyError, pyEquals, pyTypeName } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';

type Arg = PyValue | undefined;

/** The items `for x in value` visits; a value that is not iterable raises Python's TypeError text. */
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

/** `sorted(value)`. */
export const pySorted = (value: Arg): PyValue[] => {
  const items = [...iterate(value)];
  try {
    // Python's sort is stable like Array.prototype.sort; only the order relation matters.
    return items.sort((x, y) => compare(x, y));
  } catch (error) {
    if (isPyError(error)) throw new ToolError(error.message);
    throw error;
  }
};

/**
 * The reference's check that every requested item is in the order often enough:
 * `for x in item_ids: if item_ids.count(x) > order_item_ids.count(x): raise ValueError(message(x))`.
 */
export const requireItemsInOrder = (itemIds: Arg, orderItemIds: readonly string[], message: (itemId: PyValue) => string): void => {
  for (const itemId of iterate(itemIds)) {
    if (pyCount(itemIds, itemId) > orderItemIds.filter((id) => pyEquals(id, itemId)).length) {
      throw new ToolError(message(itemId));
    }
  }
};
