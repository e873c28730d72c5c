// Retail domain agent tools, in the reference's registration order (reference: src/tau2/domains/retail/tools.py).
// Arguments arrive unvalidated (as in Python); models are validated only where the reference builds one.
import { add, dumpsPy, pyDictFrom, pyEquals, pyRound, pyRoundBuiltin, pyStr, pyTypeName, sub, toNumber } from '../../src/core/py/index.ts';
import type { PyNumber, PyValue } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import { dictHas } from '../../src/core/environment/python-dict.ts';
import { constructModel } from '../../src/core/environment/model.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import type { ToolParameters } from '../../src/core/llm/tool-schema.ts';
import { transferToHumanAgents } from '../../src/core/environment/common-tools.ts';
import { calculate } from '../../src/core/environment/calculate.ts';
import { OrderPaymentSchema, UserAddressSchema } from './data_model.ts';
import type { GiftCard, Order, OrderItem, PaymentMethod, RetailDB, Variant } from './data_model.ts';
import { getItem, getOrder, getPaymentMethod, getProduct, getUser, getVariant } from './lookups.ts';
import { pyLen, pySorted, pyZip } from '../../src/core/environment/python-args.ts';
import { requireItemsInOrder } from './item-counts.ts';

const ORDER_ID = {
  description: "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
  title: 'Order Id',
  type: 'string',
};
const USER_ID = { description: "The user id, such as 'sara_doe_496'.", title: 'User Id', type: 'string' };
const PAYMENT_METHOD_ID = {
  description:
    "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details.",
  title: 'Payment Method Id',
  type: 'string',
};
const itemIdList = (description: string, title: string) => ({ description, items: { type: 'string' }, title, type: 'array' });

const ADDRESS = {
  address1: { description: "The first line of the address, such as '123 Main St'.", title: 'Address1', type: 'string' },
  address2: { description: "The second line of the address, such as 'Apt 1' or ''.", title: 'Address2', type: 'string' },
  city: { description: "The city, such as 'San Francisco'.", title: 'City', type: 'string' },
  state: { description: "The state, such as 'CA'.", title: 'State', type: 'string' },
  country: { description: "The country, such as 'USA'.", title: 'Country', type: 'string' },
  zip: { description: "The zip code, such as '12345'.", title: 'Zip', type: 'string' },
};
const ADDRESS_KEYS = ['address1', 'address2', 'city', 'state', 'country', 'zip'];

const parameters = (properties: ToolParameters['properties']): ToolParameters => {
  const required = Object.keys(properties);
  return required.length === 0
    ? { properties, title: 'parameters', type: 'object' }
    : { properties, required, title: 'parameters', type: 'object' };
};

type Arg = PyValue | undefined;

/** `value.lower()` of an argument: anything but a str raises Python's AttributeError text. */
const lower = (value: Arg): string => {
  if (typeof value !== 'string') throw new ToolError(`'${pyTypeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
};

const isGiftCard = (method: PaymentMethod): method is GiftCard => method.source === 'gift_card';

/** Python `a < b` for the numbers the tools compare (a gift-card balance and an amount). */
const less = (a: PyNumber, b: PyNumber): boolean => toNumber(a) < toNumber(b);

const orderItemIds = (order: Order): string[] => order.items.map((item) => item.item_id);

/** The first order item with this item id (`next(item for item in order.items if item.item_id == item_id)`). */
const findOrderItem = (order: Order, itemId: PyValue): OrderItem => {
  const item = order.items.find((candidate) => pyEquals(candidate.item_id, itemId));
  if (!item) throw new ToolError(`Item ${pyStr(itemId)} not found`);
  return item;
};

/** Validates each `(old, new)` pair (rule-specific checks in `check`); returns the price difference and last variant. */
const priceNewItems = (
  db: RetailDB,
  order: Order,
  itemIds: Arg,
  newItemIds: Arg,
  check: (itemId: PyValue, newItemId: PyValue) => void = () => {},
): { diff: PyNumber; lastVariant: Variant | undefined } => {
  let diff: PyNumber = 0;
  let lastVariant: Variant | undefined;
  for (const [itemId, newItemId] of pyZip(itemIds, newItemIds)) {
    check(itemId, newItemId);
    const item = findOrderItem(order, itemId);
    const variant = getVariant(db, item.product_id, newItemId);
    if (!variant.available) throw new ToolError(`New item ${pyStr(newItemId)} not found or available`);
    diff = add(diff, sub(variant.price, item.price));
    lastVariant = variant;
  }
  return { diff, lastVariant };
};

const newAddress = (args: Readonly<Record<string, Arg>>) =>
  constructModel(
    'UserAddress',
    UserAddressSchema,
    Object.fromEntries(ADDRESS_KEYS.map((key) => [key, args[key]])),
  );

const CANCEL_REASONS: Readonly<Record<string, true>> = { 'no longer needed': true, 'ordered by mistake': true };

export const retailTools = defineToolkit<RetailDB>({
  className: 'RetailTools',
  tools: {
    calculate,
    cancel_pending_order: {
      type: 'write',
      description:
        "Cancel a pending order. If the order is already processed or delivered,\n\nit cannot be cancelled. The agent needs to explain the cancellation detail\nand ask for explicit user confirmation (yes/no) to proceed. If the user confirms,\nthe order status will be changed to 'cancelled' and the payment will be refunded.\nThe refund will be added to the user's gift card balance immediately if the payment\nwas made using a gift card, otherwise the refund would take 5-7 business days to process.\nThe function returns the order details after the cancellation.",
      parameters: parameters({
        order_id: ORDER_ID,
        reason: {
          description: "The reason for cancellation, which should be either 'no longer needed' or 'ordered by mistake'.",
          title: 'Reason',
          type: 'string',
        },
      }),
      run: (db, { order_id, reason }) => {
        const order = getOrder(db, order_id);
        if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be cancelled');
        if (!dictHas(CANCEL_REASONS, reason)) throw new ToolError('Invalid reason');
        const refunds = [];
        for (const payment of order.payment_history) {
          refunds.push(
            constructModel('OrderPayment', OrderPaymentSchema, {
              transaction_type: 'refund',
              amount: payment.amount,
              payment_method_id: payment.payment_method_id,
            }),
          );
          const user = getUser(db, order.user_id);
          const method = getPaymentMethod(db, user.user_id, payment.payment_method_id);
          // Gift cards are refunded at once (balances are changed as the loop goes, as in the reference).
          if (isGiftCard(method)) method.balance = pyRound(add(method.balance, payment.amount), 2);
        }
        order.status = 'cancelled';
        order.cancel_reason = reason as Order['cancel_reason'];
        order.payment_history.push(...refunds);
        return order;
      },
    },
    exchange_delivered_order_items: {
      type: 'write',
      description:
        'Exchange items in a delivered order to new items of the same product type.\n\nFor a delivered order, return or exchange can be only done once by the agent.\nThe agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.',
      parameters: parameters({
        order_id: ORDER_ID,
        item_ids: itemIdList(
          "The item ids to be exchanged, each such as '1008292230'. There could be duplicate items in the list.",
          'Item Ids',
        ),
        new_item_ids: itemIdList(
          "The item ids to be exchanged for, each such as '1008292230'.\nThere could be duplicate items in the list. Each new item id should match the item id\nin the same position and be of the same product.",
          'New Item Ids',
        ),
        payment_method_id: {
          ...PAYMENT_METHOD_ID,
          description:
            "The payment method id to pay or receive refund for the item price difference,\nsuch as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up\nfrom the user or order details.",
        },
      }),
      run: (db, { order_id, item_ids, new_item_ids, payment_method_id }) => {
        const order = getOrder(db, order_id);
        if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be exchanged');
        requireItemsInOrder(item_ids, orderItemIds(order), (id) => `Number of ${pyStr(id)} not found.`);
        if (pyLen(item_ids) !== pyLen(new_item_ids)) throw new ToolError('The number of items to be exchanged should match.');
        // round() keeps an int 0 an int when there is nothing to exchange, as Python's does.
        const diff = pyRoundBuiltin(priceNewItems(db, order, item_ids, new_item_ids).diff, 2);
        const method = getPaymentMethod(db, order.user_id, payment_method_id);
        if (isGiftCard(method) && less(method.balance, diff)) {
          throw new ToolError('Insufficient gift card balance to pay for the price difference');
        }
        // Assigned without validation, as in the reference.
        const raw = order as Record<keyof Order, unknown>;
        raw.status = 'exchange requested';
        raw.exchange_items = pySorted(item_ids);
        raw.exchange_new_items = pySorted(new_item_ids);
        raw.exchange_payment_method_id = payment_method_id;
        raw.exchange_price_difference = diff;
        return order;
      },
    },
    find_user_id_by_name_zip: {
      type: 'read',
      description:
        'Find user id by first name, last name, and zip code. If the user is not found, the function\n\nwill return an error message. By default, find user id by email, and only call this function\nif the user is not found by email or cannot remember email.',
      parameters: parameters({
        first_name: { description: "The first name of the customer, such as 'John'.", title: 'First Name', type: 'string' },
        last_name: { description: "The last name of the customer, such as 'Doe'.", title: 'Last Name', type: 'string' },
        zip: { description: "The zip code of the customer, such as '12345'.", title: 'Zip', type: 'string' },
      }),
      run: (db, { first_name, last_name, zip }) => {
        for (const [userId, user] of Object.entries(db.users)) {
          if (
            user.name.first_name.toLowerCase() === lower(first_name) &&
            user.name.last_name.toLowerCase() === lower(last_name) &&
            pyEquals(user.address.zip, zip!)
          ) {
            return userId;
          }
        }
        throw new ToolError('User not found');
      },
    },
    find_user_id_by_email: {
      type: 'read',
      description: 'Find user id by email. If the user is not found, the function will return an error message.',
      parameters: parameters({
        email: { description: "The email of the user, such as 'something@example.com'.", title: 'Email', type: 'string' },
      }),
      run: (db, { email }) => {
        for (const [userId, user] of Object.entries(db.users)) {
          if (user.email.toLowerCase() === lower(email)) return userId;
        }
        throw new ToolError('User not found');
      },
    },
    get_order_details: {
      type: 'read',
      description: 'Get the status and details of an order.',
      parameters: parameters({ order_id: ORDER_ID }),
      run: (db, { order_id }) => getOrder(db, order_id),
    },
    get_product_details: {
      type: 'read',
      description: 'Get the inventory details of a product.',
      parameters: parameters({
        product_id: {
          description: "The product id, such as '6086499569'. Be careful the product id is different from the item id.",
          title: 'Product Id',
          type: 'string',
        },
      }),
      run: (db, { product_id }) => getProduct(db, product_id),
    },
    get_item_details: {
      type: 'read',
      description: 'Get the inventory details of an item.',
      parameters: parameters({
        item_id: {
          description: "The item id, such as '6086499569'. Be careful the item id is different from the product id.",
          title: 'Item Id',
          type: 'string',
        },
      }),
      run: (db, { item_id }) => getItem(db, item_id),
    },
    get_user_details: {
      type: 'read',
      description: 'Get the details of a user, including their orders.',
      parameters: parameters({ user_id: USER_ID }),
      run: (db, { user_id }) => getUser(db, user_id),
    },
    list_all_product_types: {
      type: 'read',
      description:
        'List the name and product id of all product types.\n\nEach product type has a variety of different items with unique item ids and options.\nThere are only 50 product types in the store.',
      parameters: parameters({}),
      // A JSON string, passed to the model verbatim.
      run: (db) =>
        dumpsPy(pyDictFrom([...db.products.values()].map((p): [string, PyValue] => [p.name, p.product_id])), {
          sortKeys: true,
        }),
    },
    modify_pending_order_address: {
      type: 'write',
      description:
        'Modify the shipping address of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
      parameters: parameters({ order_id: ORDER_ID, ...ADDRESS }),
      run: (db, args) => {
        const order = getOrder(db, args.order_id);
        if (!order.status.includes('pending')) throw new ToolError('Non-pending order cannot be modified');
        order.address = newAddress(args);
        return order;
      },
    },
    modify_pending_order_items: {
      type: 'write',
      description:
        'Modify items in a pending order to new items of the same product type. For a pending order, this function can only be called once. The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.',
      parameters: parameters({
        order_id: ORDER_ID,
        item_ids: itemIdList(
          "The item ids to be modified, each such as '1008292230'. There could be duplicate items in the list.",
          'Item Ids',
        ),
        new_item_ids: itemIdList(
          "The item ids to be modified for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product.",
          'New Item Ids',
        ),
        payment_method_id: PAYMENT_METHOD_ID,
      }),
      run: (db, { order_id, item_ids, new_item_ids, payment_method_id }) => {
        const order = getOrder(db, order_id);
        if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be modified');
        requireItemsInOrder(item_ids, orderItemIds(order), (id) => `${pyStr(id)} not found`);
        if (pyLen(item_ids) !== pyLen(new_item_ids)) throw new ToolError('The number of items to be exchanged should match');
        const { diff, lastVariant } = priceNewItems(db, order, item_ids, new_item_ids, (itemId, newItemId) => {
          if (pyEquals(itemId, newItemId)) throw new ToolError('The new item id should be different from the old item id');
        });
        const method = getPaymentMethod(db, order.user_id, payment_method_id);
        if (isGiftCard(method) && less(method.balance, diff)) {
          throw new ToolError('Insufficient gift card balance to pay for the new item');
        }
        // The difference is recorded unrounded; a zero difference is a refund of 0.0.
        order.payment_history.push(
          constructModel('OrderPayment', OrderPaymentSchema, {
            transaction_type: toNumber(diff) > 0 ? 'payment' : 'refund',
            amount: Math.abs(toNumber(diff)),
            payment_method_id,
          }),
        );
        if (isGiftCard(method)) method.balance = pyRound(sub(method.balance, diff), 2);
        for (const [itemId, newItemId] of pyZip(item_ids, new_item_ids)) {
          const item = findOrderItem(order, itemId);
          // Every modified item takes the price and options of the last new item, as in the reference.
          item.item_id = newItemId as string;
          item.price = lastVariant!.price;
          item.options = lastVariant!.options;
        }
        order.status = 'pending (item modified)';
        return order;
      },
    },
    modify_pending_order_payment: {
      type: 'write',
      description:
        'Modify the payment method of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
      parameters: parameters({ order_id: ORDER_ID, payment_method_id: PAYMENT_METHOD_ID }),
      run: (db, { order_id, payment_method_id }) => {
        const order = getOrder(db, order_id);
        if (!order.status.includes('pending')) throw new ToolError('Non-pending order cannot be modified');
        const method = getPaymentMethod(db, order.user_id, payment_method_id);
        const history = order.payment_history;
        const first = history[0];
        if (history.length !== 1 || first?.transaction_type !== 'payment') {
          throw new ToolError('There should be exactly one payment for a pending order');
        }
        if (first.payment_method_id === payment_method_id) {
          throw new ToolError('The new payment method should be different from the current one');
        }
        const amount = first.amount;
        if (isGiftCard(method) && less(method.balance, amount)) {
          throw new ToolError('Insufficient gift card balance to pay for the order');
        }
        history.push(
          constructModel('OrderPayment', OrderPaymentSchema, { transaction_type: 'payment', amount, payment_method_id }),
          constructModel('OrderPayment', OrderPaymentSchema, {
            transaction_type: 'refund',
            amount,
            payment_method_id: first.payment_method_id,
          }),
        );
        if (isGiftCard(method)) method.balance = pyRound(sub(method.balance, amount), 2);
        // Looked up after the new payment is recorded: a missing old method fails with the change kept.
        const oldMethod = getPaymentMethod(db, order.user_id, first.payment_method_id);
        if (isGiftCard(oldMethod)) oldMethod.balance = pyRound(add(oldMethod.balance, amount), 2);
        return order;
      },
    },
    modify_user_address: {
      type: 'write',
      description:
        'Modify the default address of a user. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.',
      parameters: parameters({ user_id: USER_ID, ...ADDRESS }),
      run: (db, args) => {
        const user = getUser(db, args.user_id);
        user.address = newAddress(args);
        return user;
      },
    },
    return_delivered_order_items: {
      type: 'write',
      description:
        "Return some items of a delivered order.\n\nThe order status will be changed to 'return requested'.\nThe agent needs to explain the return detail and ask for explicit user confirmation (yes/no) to proceed.\nThe user will receive follow-up email for how and where to return the item.",
      parameters: parameters({
        order_id: ORDER_ID,
        item_ids: itemIdList(
          "The item ids to be returned, each such as '1008292230'. There could be duplicate items in the list.",
          'Item Ids',
        ),
        payment_method_id: {
          ...PAYMENT_METHOD_ID,
          description:
            "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'.\nThese can be looked up from the user or order details.",
        },
      }),
      run: (db, { order_id, item_ids, payment_method_id }) => {
        const order = getOrder(db, order_id);
        if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be returned');
        const user = getUser(db, order.user_id);
        const method = getPaymentMethod(db, user.user_id, payment_method_id);
        if (!isGiftCard(method)) {
          const original = order.payment_history[0];
          if (!original) throw new ToolError('list index out of range');
          if (payment_method_id !== original.payment_method_id) {
            throw new ToolError('Payment method should be the original payment method');
          }
        }
        requireItemsInOrder(item_ids, orderItemIds(order), () => 'Some item not found');
        const raw = order as Record<keyof Order, unknown>;
        raw.status = 'return requested';
        raw.return_items = pySorted(item_ids);
        raw.return_payment_method_id = payment_method_id;
        return order;
      },
    },
    transfer_to_human_agents: transferToHumanAgents,
  },
  functions: {},
});
