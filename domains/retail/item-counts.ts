// The retail tools' check that every requested item is in the order often enough.
import { ToolError } from '../../src/core/environment/errors.ts';
import { iterate, pyCount } from '../../src/core/environment/python-args.ts';
import { pyEquals } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';

/** `for x in item_ids: if item_ids.count(x) > order_item_ids.count(x): raise ValueError(message(x))`. */
export const requireItemsInOrder = (
  itemIds: PyValue | undefined,
  orderItemIds: readonly string[],
  message: (itemId: PyValue) => string,
): void => {
  for (const itemId of iterate(itemIds)) {
    if (pyCount(itemIds, itemId) > orderItemIds.filter((id) => pyEquals(id, itemId)).length) {
      throw new ToolError(message(itemId));
    }
  }
};
