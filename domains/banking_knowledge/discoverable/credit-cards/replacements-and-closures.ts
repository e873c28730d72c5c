// Replacement card orders, dispute and order histories, and closure reasons (reference: `@is_discoverable_tool`
// methods of KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
import { dumpsPy, pyRepr, pyStr } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { addToDb, updateRecordInDb } from '../../db_query.ts';
import { isOneOf } from '../../record-values.ts';
import { generateClosureReasonId, generateCreditCardOrderId, getTodayStr } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { inTable, titledCode } from '../python-values.ts';
import { cardAccountMissing, cardAccountNotFound, historyTool } from './listings.ts';

const REPLACEMENT_REASONS = ['fraud_suspected', 'lost', 'stolen', 'damaged', 'expired', 'other'];
const CLOSURE_REASONS = [
  'annual_fee',
  'not_using_card',
  'found_better_card',
  'unhappy_with_rewards',
  'simplifying_finances',
  'negative_experience',
  'other',
];

export const replacementAndClosureTools = defineDiscoverableTools<TransactionalDB>({
  order_replacement_credit_card_7291: {
    type: 'write',
    doc: `Order a replacement credit card for a customer. The old card will be automatically cancelled when the replacement is ordered.

Args:
    credit_card_account_id (string): The credit card account ID for the card being replaced
    user_id (string): The user's unique identifier in the system
    shipping_address (string): Full shipping address where the new card should be sent
    reason (string): Reason for replacement. Must be one of: 'fraud_suspected', 'lost', 'stolen', 'damaged', 'expired', 'other'
    expedited_shipping (boolean, optional): Whether to use expedited shipping (2-3 business days instead of 7-10)

Returns:
    Replacement credit card order placed successfully. The old card has been cancelled for security.`,
    params: signature(['credit_card_account_id', 'user_id', 'shipping_address', 'reason'], { expedited_shipping: false }),
    run: (db, a) => {
      if (![a.credit_card_account_id, a.user_id, a.shipping_address, a.reason].every((v) => truthy(v))) {
        return 'Error: Missing required parameters (credit_card_account_id, user_id, shipping_address, reason).';
      }
      if (!isOneOf(a.reason, REPLACEMENT_REASONS)) return `Error: Invalid reason. Must be one of: ${pyRepr(REPLACEMENT_REASONS)}`;
      if (cardAccountMissing(db, a.credit_card_account_id)) {
        return cardAccountNotFound(a.credit_card_account_id);
      }
      const orderId = generateCreditCardOrderId(a.credit_card_account_id!, a.user_id!, a.reason!);
      const record: Record<string, PyValue> = {
        order_id: orderId,
        credit_card_account_id: a.credit_card_account_id!,
        user_id: a.user_id!,
        shipping_address: a.shipping_address!,
        reason: a.reason!,
        expedited_shipping: a.expedited_shipping!,
        order_date: getTodayStr(),
        status: 'ORDERED',
        old_card_cancelled: true,
      };
      if (!addToDb(db, 'credit_card_orders', orderId, record)) {
        return 'Error: Order may have already been placed for this card replacement.';
      }
      // The old card is cancelled for security as soon as its replacement is ordered.
      if (inTable(db, 'credit_card_accounts', a.credit_card_account_id)) {
        updateRecordInDb(db, 'credit_card_accounts', a.credit_card_account_id, [
          ['status', 'CLOSED'],
          ['closed_date', getTodayStr()],
        ]);
      }
      const expedited = truthy(a.expedited_shipping);
      return [
        `Order ID: ${orderId}`,
        `Card Account: ${pyStr(a.credit_card_account_id!)}`,
        `Reason: ${titledCode(a.reason)}`,
        `Shipping Address: ${pyStr(a.shipping_address!)}`,
        `Shipping Method: ${expedited ? 'Expedited' : 'Standard'}`,
        `Expected Delivery: ${expedited ? '2-3 business days' : '7-10 business days'}`,
        '',
        'The old card has been cancelled for security. The new card will have the same account number but a new card number and CVV.',
      ].join('\n');
    },
  },
  get_user_dispute_history_7291: historyTool({
    tool: 'get_user_dispute_history_7291',
    doc: `Retrieve a user's credit card transaction dispute history from the transaction_disputes table. Returns all credit card transaction disputes filed by the user, including dispute IDs, transaction IDs, dispute reasons, statuses, and submission dates.

Args:
    user_id (string): The user's unique identifier in the system

Returns:
    User transaction dispute history retrieved successfully.`,
    table: 'transaction_disputes',
    field: 'user_id',
    done: 'User transaction dispute history retrieved successfully.',
    heading: (userId) => `Transaction dispute history for user ${userId}:`,
    none: 'No transaction disputes found for this user.',
  }),
  get_pending_replacement_orders_5765: historyTool({
    tool: 'get_pending_replacement_orders_5765',
    doc: `Check if a credit card account has any pending replacement card orders.

Args:
    credit_card_account_id (string): The credit card account ID to check for pending replacement orders

Returns:
    Pending replacement orders check completed.`,
    table: 'credit_card_orders',
    field: 'credit_card_account_id',
    done: 'Pending replacement orders check completed.',
    heading: (accountId) => `Replacement orders for credit card account ${accountId}:`,
    none: 'No pending replacement orders found for this credit card account.',
  }),
  log_credit_card_closure_reason_4521: {
    type: 'write',
    doc: `Log the reason why a customer wants to close their credit card account.

Args:
    credit_card_account_id (string): The credit card account ID the customer wants to close
    user_id (string): The user's unique identifier in the system
    closure_reason (string): Reason for closure. Must be one of: 'annual_fee', 'not_using_card', 'found_better_card', 'unhappy_with_rewards', 'simplifying_finances', 'negative_experience', 'other'

Returns:
    Closure reason logged successfully.`,
    params: signature(['credit_card_account_id', 'user_id', 'closure_reason']),
    run: (db, a) => {
      if (![a.credit_card_account_id, a.user_id, a.closure_reason].every((v) => truthy(v))) {
        return 'Error: Missing required parameters.';
      }
      if (!isOneOf(a.closure_reason, CLOSURE_REASONS)) {
        return `Error: Invalid closure_reason. Must be one of: ${pyRepr(CLOSURE_REASONS)}`;
      }
      const recordId = generateClosureReasonId(a.credit_card_account_id!, a.user_id!);
      addToDb(db, 'credit_card_closure_reasons', recordId, {
        record_id: recordId,
        credit_card_account_id: a.credit_card_account_id!,
        user_id: a.user_id!,
        closure_reason: a.closure_reason!,
        logged_at: getTodayStr(),
        status: 'LOGGED',
      });
      const args = {
        credit_card_account_id: a.credit_card_account_id!,
        user_id: a.user_id!,
        closure_reason: a.closure_reason!,
      };
      return [
        'Closure reason logged successfully.',
        '',
        'Executed: log_credit_card_closure_reason_4521',
        `Arguments: ${dumpsPy(args, { indent: 2 })}`,
        `Closure reason '${pyStr(a.closure_reason!)}' logged for account ${pyStr(a.credit_card_account_id!)}.`,
      ].join('\n');
    },
  },
  get_closure_reason_history_8293: historyTool({
    tool: 'get_closure_reason_history_8293',
    doc: `Retrieve the closure reason history for a specific credit card account.

Args:
    credit_card_account_id (string): The credit card account ID to check for previous closure attempts

Returns:
    Closure reason history retrieved successfully.`,
    table: 'credit_card_closure_reasons',
    field: 'credit_card_account_id',
    done: 'Closure reason history retrieved successfully.',
    heading: (accountId) => `Closure reason history for credit card account ${accountId}:`,
    none: 'No closure reason records found for this credit card account.',
  }),
});
