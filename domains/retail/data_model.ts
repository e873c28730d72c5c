// Retail domain DB model (reference: src/tau2/domains/retail/data_model.py). Field order = dump order.
import { z } from 'zod';
import { PyBoolSchema, PyFloatSchema, nullable, pyMap } from '../../src/core/schemas/py-types.ts';

export const VariantSchema = z.object({
  item_id: z.string(),
  options: z.record(z.string(), z.string()),
  available: PyBoolSchema,
  price: PyFloatSchema,
});
export type Variant = z.infer<typeof VariantSchema>;

export const ProductSchema = z.object({
  name: z.string(),
  product_id: z.string(),
  // Keyed by item ids such as "1008292230": a Map keeps the DB's order (see PyValue).
  variants: pyMap(VariantSchema),
});
export type Product = z.infer<typeof ProductSchema>;

export const UserNameSchema = z.object({ first_name: z.string(), last_name: z.string() });

export const UserAddressSchema = z.object({
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  country: z.string(),
  state: z.string(),
  zip: z.string(),
});
export type UserAddress = z.infer<typeof UserAddressSchema>;

export const CreditCardSchema = z.object({
  source: z.literal('credit_card'),
  id: z.string(),
  brand: z.string(),
  last_four: z.string(),
});

export const PaypalSchema = z.object({ source: z.literal('paypal'), id: z.string() });

export const GiftCardSchema = z.object({ source: z.literal('gift_card'), id: z.string(), balance: PyFloatSchema });
export type GiftCard = z.infer<typeof GiftCardSchema>;

/** `Union[CreditCard, GiftCard, Paypal]`; the `source` literal tells them apart. */
export const PaymentMethodSchema = z.discriminatedUnion('source', [CreditCardSchema, GiftCardSchema, PaypalSchema]);
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;

export const UserSchema = z.object({
  user_id: z.string(),
  name: UserNameSchema,
  address: UserAddressSchema,
  email: z.string(),
  payment_methods: z.record(z.string(), PaymentMethodSchema),
  orders: z.array(z.string()),
});
export type User = z.infer<typeof UserSchema>;

export const OrderFulfillmentSchema = z.object({ tracking_id: z.array(z.string()), item_ids: z.array(z.string()) });

export const OrderItemSchema = z.object({
  name: z.string(),
  product_id: z.string(),
  item_id: z.string(),
  price: PyFloatSchema,
  options: z.record(z.string(), z.string()),
});
export type OrderItem = z.infer<typeof OrderItemSchema>;

export const OrderPaymentSchema = z.object({
  transaction_type: z.enum(['payment', 'refund']),
  amount: PyFloatSchema,
  payment_method_id: z.string(),
});
export type OrderPayment = z.infer<typeof OrderPaymentSchema>;

export const OrderStatusSchema = z.enum([
  'processed',
  'pending',
  'pending (item modified)',
  'delivered',
  'cancelled',
  'exchange requested',
  'return requested',
]);

export const CANCEL_REASONS = ['no longer needed', 'ordered by mistake'] as const;

export const OrderSchema = z.object({
  order_id: z.string(),
  user_id: z.string(),
  address: UserAddressSchema,
  items: z.array(OrderItemSchema),
  status: OrderStatusSchema,
  fulfillments: z.array(OrderFulfillmentSchema),
  payment_history: z.array(OrderPaymentSchema),
  cancel_reason: nullable(z.enum(CANCEL_REASONS)),
  exchange_items: nullable(z.array(z.string())),
  exchange_new_items: nullable(z.array(z.string())),
  exchange_payment_method_id: nullable(z.string()),
  exchange_price_difference: nullable(PyFloatSchema),
  return_items: nullable(z.array(z.string())),
  return_payment_method_id: nullable(z.string()),
});
export type Order = z.infer<typeof OrderSchema>;

export const RetailDBSchema = z.object({
  // Product ids such as "1656367028" are index-like too.
  products: pyMap(ProductSchema),
  users: z.record(z.string(), UserSchema),
  orders: z.record(z.string(), OrderSchema),
});
export type RetailDB = z.infer<typeof RetailDBSchema>;
