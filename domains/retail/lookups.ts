// Retail DB lookups with the reference's error texts (reference: RetailTools._get_* helpers).
import { ToolError } from '../../src/core/environment/errors.ts';
import { dictHas } from '../../src/core/environment/python-dict.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import type { Order, PaymentMethod, Product, RetailDB, User, Variant } from './data_model.ts';

type Arg = PyValue | undefined;

export const getOrder = (db: RetailDB, orderId: Arg): Order => {
  if (!dictHas(db.orders, orderId)) throw new ToolError('Order not found');
  return db.orders[orderId]!;
};

export const getUser = (db: RetailDB, userId: Arg): User => {
  if (!dictHas(db.users, userId)) throw new ToolError('User not found');
  return db.users[userId]!;
};

export const getProduct = (db: RetailDB, productId: Arg): Product => {
  if (!dictHas(db.products, productId)) throw new ToolError('Product not found');
  return db.products.get(productId)!;
};

/** The variant with this item id in the first product (DB order) that has it. */
export const getItem = (db: RetailDB, itemId: Arg): Variant => {
  for (const product of db.products.values()) {
    if (dictHas(product.variants, itemId)) return product.variants.get(itemId)!;
  }
  throw new ToolError('Item not found');
};

export const getVariant = (db: RetailDB, productId: Arg, variantId: Arg): Variant => {
  const product = getProduct(db, productId);
  if (!dictHas(product.variants, variantId)) throw new ToolError('Variant not found');
  return product.variants.get(variantId)!;
};

export const getPaymentMethod = (db: RetailDB, userId: Arg, paymentMethodId: Arg): PaymentMethod => {
  const user = getUser(db, userId);
  if (!dictHas(user.payment_methods, paymentMethodId)) throw new ToolError('Payment method not found');
  return user.payment_methods[paymentMethodId]!;
};
