// Credit limit increases (request, history, approval, denial) and the payment history they are judged on
// (reference: `@is_discoverable_tool` methods of KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
import { PyFloat, compare, pyEquals, pyFormatFixed, pyStr, pyToFloat } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { addToDb, field, getRecord, tableRecords, updateRecordInDb } from '../../db_query.ts';
import type { DbRecord } from '../../db_query.ts';
import { fieldOr, isOneOf } from '../../record-values.ts';
import { generateCreditLimitIncreaseRequestId, getTodayStr } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { convertedOrNull, dollarsOrZero, groupThousands, inTable, pyInt, pyUpper } from '../python-values.ts';
import { cardAccountNotFound, cardAccountNotOwned, historyTool } from './listings.ts';

const OPEN_DISPUTE_STATUSES = ['SUBMITTED', 'UNDER_REVIEW', 'PENDING'];
const OPEN_ORDER_STATUSES = ['PENDING', 'PROCESSING', 'SHIPPED'];
const BAD_STANDINGS = ['PAST_DUE', 'DELINQUENT', 'COLLECTIONS', 'CLOSED'];
const DENIAL_REASONS = [
  'insufficient_account_age',
  'cooldown_period_active',
  'pending_disputes',
  'pending_replacement_card',
  'past_due_balance',
  'high_utilization',
  'insufficient_payment_history',
  'requested_amount_exceeds_limit',
  'other',
];

const money = (amount: PyValue): string => pyFormatFixed(amount, 2);

/** The approval's eligibility: no open dispute of the user, no replacement card on its way, good standing. */
const mayIncrease = (db: TransactionalDB, card: DbRecord, cardId: string, userId: PyValue): boolean => {
  const openDispute = tableRecords(db, 'transaction_disputes').some(
    ([, d]) => pyEquals(field(d, 'user_id') ?? null, userId) && isOneOf(field(d, 'status'), OPEN_DISPUTE_STATUSES),
  );
  if (openDispute) return false;
  const openOrder = tableRecords(db, 'credit_card_orders').some(
    ([, o]) => pyEquals(field(o, 'credit_card_account_id') ?? null, cardId) && isOneOf(field(o, 'status'), OPEN_ORDER_STATUSES),
  );
  if (openOrder) return false;
  return !BAD_STANDINGS.includes(pyUpper(fieldOr(card, 'account_status', '')));
};

export const creditLimitTools = defineDiscoverableTools<TransactionalDB>({
  submit_credit_limit_increase_request_7392: {
    type: 'write',
    doc: `Submit a credit limit increase request for a customer's credit card.

Args:
    credit_card_account_id (string): The credit card account ID to request increase for
    user_id (string): The customer's unique identifier in the system
    requested_increase_amount (integer): The dollar amount by which to increase the credit limit (e.g., 2500 for $2,500)

Returns:
    Credit limit increase request submitted successfully.`,
    params: signature(['credit_card_account_id', 'user_id', 'requested_increase_amount']),
    run: (db, a) => {
      const { credit_card_account_id: cardId, user_id: userId } = a;
      if (!truthy(cardId) || !truthy(userId) || a.requested_increase_amount === null) {
        return 'Error: Missing required parameters.';
      }
      const asFloat = convertedOrNull(() => pyToFloat(a.requested_increase_amount));
      if (asFloat === null) return 'Error: Invalid requested_increase_amount. Must be a whole number.';
      if (!Number.isInteger(asFloat.value)) {
        return 'Error: Invalid requested_increase_amount. Must be a whole number of dollars.';
      }
      // Stored as an int (the documented type), so 2500 and 2500.0 give the same record and text.
      const amount = asFloat.value;
      if (amount <= 0) return 'Error: Requested increase amount must be positive.';
      if (!inTable(db, 'credit_card_accounts', cardId)) return cardAccountNotFound(cardId);
      if (!pyEquals(field(getRecord(db, 'credit_card_accounts', cardId)!, 'user_id') ?? null, userId!)) {
        return cardAccountNotOwned(cardId, userId);
      }
      const requestId = generateCreditLimitIncreaseRequestId(cardId, userId!, amount);
      const record: Record<string, PyValue> = {
        request_id: requestId,
        credit_card_account_id: cardId,
        user_id: userId!,
        requested_increase_amount: amount,
        submitted_at: getTodayStr(),
        status: 'PENDING',
      };
      if (!addToDb(db, 'credit_limit_increase_requests', requestId, record)) return 'Error: A similar request may already exist.';
      return [
        'Credit limit increase request submitted successfully.',
        '',
        'Executed: submit_credit_limit_increase_request_7392',
        `  - Request ID: ${requestId}`,
        `  - Account: ${cardId}`,
        `  - Requested Increase: $${groupThousands(amount)}`,
        '  - Status: PENDING',
      ].join('\n');
    },
  },
  get_credit_limit_increase_history_4829: historyTool({
    tool: 'get_credit_limit_increase_history_4829',
    doc: `Retrieve the credit limit increase request history for a specific credit card account. Returns all previous CLI requests including dates, amounts, and statuses.

Args:
    credit_card_account_id (string): The credit card account ID to check for CLI history

Returns:
    Credit limit increase history retrieved.`,
    table: 'credit_limit_increase_requests',
    field: 'credit_card_account_id',
    done: 'Credit limit increase history retrieved.',
    heading: (accountId) => `Credit limit increase history for account ${accountId}:`,
    none: 'No credit limit increase requests found for this account.',
  }),
  get_payment_history_6183: {
    type: 'read',
    doc: `Retrieve payment history for a credit card account.

Args:
    credit_card_account_id (string): The credit card account ID to check payment history for
    months (integer): Number of months of payment history to retrieve

Returns:
    Payment history retrieved.`,
    params: signature(['credit_card_account_id', 'months']),
    run: (db, a) => {
      const cardId = a.credit_card_account_id;
      if (!truthy(cardId) || a.months === null) return 'Error: Missing required parameters (credit_card_account_id, months).';
      const months = convertedOrNull(() => pyInt(a.months));
      if (months === null) return 'Error: Invalid months value. Must be a positive integer.';
      if (months <= 0n) return 'Error: months must be a positive integer.';
      const payments = tableRecords(db, 'payment_history')
        .map(([, payment]) => payment)
        .filter((payment) => pyEquals(field(payment, 'credit_card_account_id') ?? null, cardId!));
      if (payments.length === 0) return `No payment history found for account '${pyStr(cardId!)}'.`;
      // Most recent first by the date text; the stable sort keeps equal dates in table order, as Python's does.
      const dateKey = (payment: DbRecord): PyValue => {
        const date = field(payment, 'payment_date') ?? null;
        return truthy(date) ? date : '';
      };
      const recent = payments
        .sort((x, y) => compare(dateKey(y), dateKey(x)))
        .slice(0, months > BigInt(payments.length) ? payments.length : Number(months));
      const onTimeRun = recent.findIndex((payment) => field(payment, 'status') !== 'ON_TIME');
      const lines = [
        `Payment history for account '${pyStr(cardId!)}' (last ${months} months):`,
        `Consecutive on-time payments: ${onTimeRun < 0 ? recent.length : onTimeRun}`,
      ];
      const shown = (payment: DbRecord, name: string): string => pyStr(field(payment, name) ?? null);
      for (const payment of recent) {
        lines.push(
          `\n  - Payment Date: ${shown(payment, 'payment_date')}\n    Amount: ${shown(payment, 'amount')}\n    Status: ${shown(payment, 'status')}`,
        );
      }
      return lines.join('\n');
    },
  },
  approve_credit_limit_increase_5847: {
    type: 'write',
    doc: `Approve and apply a credit limit increase for a customer's credit card.

Args:
    credit_card_account_id (string): The credit card account ID
    user_id (string): The customer's unique identifier in the system
    new_credit_limit (integer): The new total credit limit in dollars (e.g., 7500 for $7,500)

Returns:
    Credit limit increase approved and applied successfully.`,
    params: signature(['credit_card_account_id', 'user_id', 'new_credit_limit']),
    run: (db, a) => {
      const { credit_card_account_id: cardId, user_id: userId } = a;
      if (!truthy(cardId) || !truthy(userId) || a.new_credit_limit === null) return 'Error: Missing required parameters.';
      if (!inTable(db, 'credit_card_accounts', cardId)) return cardAccountNotFound(cardId);
      const card = getRecord(db, 'credit_card_accounts', cardId)!;
      if (!pyEquals(field(card, 'user_id') ?? null, userId!)) return cardAccountNotOwned(cardId, userId);
      if (!mayIncrease(db, card, cardId, userId!)) {
        return 'Error: Credit limit increase request cannot be approved at this time.';
      }
      const currentLimit = dollarsOrZero(fieldOr(card, 'credit_limit', '$0.00'));
      const newLimit = pyToFloat(a.new_credit_limit);
      updateRecordInDb(db, 'credit_card_accounts', cardId, [['credit_limit', `$${money(newLimit)}`]]);
      const today = getTodayStr();
      const increase = new PyFloat(newLimit.value - currentLimit.value);
      const requestId = generateCreditLimitIncreaseRequestId(cardId, userId!, increase);
      addToDb(db, 'credit_limit_increase_requests', requestId, {
        request_id: requestId,
        credit_card_account_id: cardId,
        user_id: userId!,
        previous_limit: `$${money(currentLimit)}`,
        new_limit: `$${money(newLimit)}`,
        increase_amount: `$${money(increase)}`,
        decision_date: today,
        status: 'APPROVED',
      });
      return [
        'Credit limit increase approved!',
        `  - Account: ${cardId}`,
        `  - Previous Limit: $${money(currentLimit)}`,
        `  - New Limit: $${money(newLimit)}`,
        `  - Increase: $${money(increase)}`,
        `  - Effective Date: ${today}`,
        'The customer will receive a confirmation email.',
      ].join('\n');
    },
  },
  deny_credit_limit_increase_5848: {
    type: 'write',
    doc: `Deny a credit limit increase request for a customer's credit card.

Args:
    credit_card_account_id (string): The credit card account ID
    user_id (string): The customer's unique identifier in the system
    denial_reason (string): The reason for denying the request. Must be one of: 'insufficient_account_age', 'cooldown_period_active', 'pending_disputes', 'pending_replacement_card', 'past_due_balance', 'high_utilization', 'insufficient_payment_history', 'requested_amount_exceeds_limit', 'other'

Returns:
    Credit limit increase request denied.`,
    params: signature(['credit_card_account_id', 'user_id', 'denial_reason']),
    run: (db, a) => {
      const { credit_card_account_id: cardId, user_id: userId } = a;
      if (!truthy(cardId) || !truthy(userId) || !truthy(a.denial_reason)) return 'Error: Missing required parameters.';
      if (!isOneOf(a.denial_reason, DENIAL_REASONS)) {
        return `Error: Invalid denial_reason. Must be one of: ${DENIAL_REASONS.join(', ')}`;
      }
      if (!inTable(db, 'credit_card_accounts', cardId)) return cardAccountNotFound(cardId);
      const today = getTodayStr();
      const requestId = generateCreditLimitIncreaseRequestId(cardId, userId!, new PyFloat(0));
      addToDb(db, 'credit_limit_increase_requests', requestId, {
        request_id: requestId,
        credit_card_account_id: cardId,
        user_id: userId!,
        denial_reason: a.denial_reason!,
        decision_date: today,
        status: 'DENIED',
      });
      return [
        'Credit limit increase request denied.',
        `  - Account: ${cardId}`,
        `  - Denial Reason: ${pyStr(a.denial_reason!)}`,
        `  - Date: ${today}`,
        'The customer will receive a notification explaining the denial.',
      ].join('\n');
    },
  },
});
