// Changes to a credit card account: statement credits, account flags, closing it and paying it from checking
// (reference: `@is_discoverable_tool` methods of KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
import {
  PyFloat,
  dumpsPy,
  pyEquals,
  pyFormatFixed,
  pyRepr,
  pyStr,
  pyToFloat,
} from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { addToDb, field, getRecord, updateRecordInDb } from '../../db_query.ts';
import { accountBalance, fieldOr, isOneOf } from '../../record-values.ts';
import { generateAccountFlagId, generateTransactionId, getTodayStr } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { convertedOrNull, dollarsOrZero, inTable, isAtMostZero, titledCode } from '../python-values.ts';
import { cardAccountMissing, cardAccountNotFound, cardAccountNotOwned } from './listings.ts';

const CREDIT_REASONS = [
  'goodwill_adjustment',
  'promotional_credit',
  'annual_fee_reversal',
  'late_fee_reversal',
  'interest_charge_reversal',
  'dispute_resolution',
  'price_match',
  'retention_offer',
  'error_correction',
  'other',
];
const FLAG_TYPES = ['annual_fee_waived', 'promotional_apr', 'rewards_bonus', 'other'];
const FLAG_REASONS = ['retention_offer', 'loyalty_benefit', 'promotional', 'error_correction', 'other'];

const money = (amount: PyValue): string => pyFormatFixed(amount, 2);

export const accountChangeTools = defineDiscoverableTools<TransactionalDB>({
  apply_statement_credit_8472: {
    type: 'write',
    doc: `Apply a statement credit to a customer's credit card account.

Args:
    user_id (string): The user's unique identifier in the system
    credit_card_account_id (string): The credit card account ID to apply the credit to
    amount (number): The credit amount in dollars (e.g., 25.00 for a $25 credit)
    reason (string): Reason for the statement credit. Must be one of: 'goodwill_adjustment', 'promotional_credit', 'annual_fee_reversal', 'late_fee_reversal', 'interest_charge_reversal', 'dispute_resolution', 'price_match', 'retention_offer', 'error_correction', 'other'

Returns:
    Statement credit applied successfully.`,
    params: signature(['user_id', 'credit_card_account_id', 'amount', 'reason']),
    run: (db, a) => {
      if (!truthy(a.user_id) || !truthy(a.credit_card_account_id) || a.amount === null || !truthy(a.reason)) {
        return 'Error: Missing required parameters (user_id, credit_card_account_id, amount, reason).';
      }
      if (isAtMostZero(a.amount)) return 'Error: Credit amount must be positive.';
      if (!isOneOf(a.reason, CREDIT_REASONS)) return `Error: Invalid reason. Must be one of: ${pyRepr(CREDIT_REASONS)}`;
      if (cardAccountMissing(db, a.credit_card_account_id)) {
        return cardAccountNotFound(a.credit_card_account_id);
      }
      const transactionId = generateTransactionId(a.user_id!, 'STATEMENT_CREDIT', a.reason!, a.amount!, 'Statement Credit');
      const today = getTodayStr();
      const record: Record<string, PyValue> = {
        transaction_id: transactionId,
        user_id: a.user_id!,
        credit_card_account_id: a.credit_card_account_id!,
        credit_card_type: 'N/A',
        merchant_name: 'Rho-Bank Statement Credit',
        transaction_amount: `-$${money(a.amount!)}`,
        transaction_date: today,
        category: 'Statement Credit',
        status: 'COMPLETED',
        rewards_earned: '0 points',
        credit_reason: a.reason!,
      };
      if (!addToDb(db, 'credit_card_transaction_history', transactionId, record)) {
        return `Error: Failed to apply statement credit. Transaction ID '${transactionId}' may already exist.`;
      }
      return [
        'Statement credit applied successfully.',
        '',
        'Executed: apply_statement_credit_8472',
        `  - Transaction ID: ${transactionId}`,
        `  - User ID: ${pyStr(a.user_id!)}`,
        `  - Account: ${pyStr(a.credit_card_account_id!)}`,
        `  - Credit Amount: $${money(a.amount!)}`,
        `  - Reason: ${titledCode(a.reason)}`,
        `  - Date: ${today}`,
      ].join('\n');
    },
  },
  apply_credit_card_account_flag_6147: {
    type: 'write',
    doc: `Apply a flag to a customer's credit card account. Flags can include annual fee waivers, promotional APR rates, rewards bonuses, or other account-level modifiers. Each flag has an effective date and expiration date.

Args:
    credit_card_account_id (string): The credit card account ID to apply the flag to
    user_id (string): The user's unique identifier in the system
    flag_type (string): Type of flag to apply. Must be one of: 'annual_fee_waived', 'promotional_apr', 'rewards_bonus', 'other'
    expiration_date (string): Date when the flag expires (MM/DD/YYYY format)
    reason (string): Reason for applying this flag. Must be one of: 'retention_offer', 'loyalty_benefit', 'promotional', 'error_correction', 'other'

Returns:
    Account flag applied successfully.`,
    params: signature(['credit_card_account_id', 'user_id', 'flag_type', 'expiration_date', 'reason']),
    run: (db, a) => {
      if (![a.credit_card_account_id, a.user_id, a.flag_type, a.expiration_date, a.reason].every((v) => truthy(v))) {
        return 'Error: Missing required parameters (credit_card_account_id, user_id, flag_type, expiration_date, reason).';
      }
      if (!isOneOf(a.flag_type, FLAG_TYPES)) return `Error: Invalid flag_type. Must be one of: ${pyRepr(FLAG_TYPES)}`;
      if (!isOneOf(a.reason, FLAG_REASONS)) return `Error: Invalid reason. Must be one of: ${pyRepr(FLAG_REASONS)}`;
      if (cardAccountMissing(db, a.credit_card_account_id)) {
        return cardAccountNotFound(a.credit_card_account_id);
      }
      const flagId = generateAccountFlagId(a.credit_card_account_id!, a.flag_type!, a.expiration_date!);
      const today = getTodayStr();
      const record: Record<string, PyValue> = {
        flag_id: flagId,
        credit_card_account_id: a.credit_card_account_id!,
        user_id: a.user_id!,
        flag_type: a.flag_type!,
        effective_date: today,
        expiration_date: a.expiration_date!,
        reason: a.reason!,
        applied_at: today,
        status: 'ACTIVE',
      };
      if (!addToDb(db, 'credit_card_account_flags', flagId, record)) {
        return `Error: Failed to apply account flag. Flag ID '${flagId}' may already exist.`;
      }
      return [
        'Account flag applied successfully!',
        `  - Flag ID: ${flagId}`,
        `  - Account: ${pyStr(a.credit_card_account_id!)}`,
        `  - User ID: ${pyStr(a.user_id!)}`,
        `  - Flag Type: ${titledCode(a.flag_type)}`,
        `  - Effective Date: ${today}`,
        `  - Expiration Date: ${pyStr(a.expiration_date!)}`,
        `  - Reason: ${titledCode(a.reason)}`,
      ].join('\n');
    },
  },
  close_credit_card_account_7834: {
    type: 'write',
    doc: `Close a customer's credit card account permanently.

Args:
    credit_card_account_id (string): The credit card account ID to close
    user_id (string): The user's unique identifier in the system

Returns:
    Credit card account closed successfully.`,
    params: signature(['credit_card_account_id', 'user_id']),
    run: (db, a) => {
      const id = a.credit_card_account_id;
      if (!truthy(id) || !truthy(a.user_id)) return 'Error: Missing required parameters (credit_card_account_id, user_id).';
      if (cardAccountMissing(db, id)) return cardAccountNotFound(id);
      if (!inTable(db, 'credit_card_accounts', id)) return `Error: Failed to close credit card account '${pyStr(id!)}'.`;
      updateRecordInDb(db, 'credit_card_accounts', id, [
        ['status', 'CLOSED'],
        ['closed_date', getTodayStr()],
        ['closed_by', a.user_id!],
      ]);
      return [
        'Credit card account closed successfully.',
        '',
        'Executed: close_credit_card_account_7834',
        `Arguments: ${dumpsPy({ credit_card_account_id: id, user_id: a.user_id! }, { indent: 2 })}`,
        `Account ${id} has been closed.`,
      ].join('\n');
    },
  },
  pay_credit_card_from_checking_9182: {
    type: 'write',
    doc: `Pay off a credit card balance using funds from the customer's Rho-Bank checking account. This deducts the specified amount from the checking account and reduces the credit card balance by the same amount.

Args:
    user_id (string): The customer's unique identifier in the system
    checking_account_id (string): The ID of the Rho-Bank checking account to debit funds from
    credit_card_account_id (string): The ID of the credit card account to apply the payment to
    amount (number): The payment amount in dollars. Must be a positive number.

Returns:
    Credit card payment processed successfully.`,
    params: signature(['user_id', 'checking_account_id', 'credit_card_account_id', 'amount']),
    run: (db, a) => {
      const { user_id: userId, checking_account_id: checkingId, credit_card_account_id: cardId } = a;
      if (!truthy(userId) || !truthy(checkingId) || !truthy(cardId) || a.amount === null) {
        return 'Error: Missing required parameters (user_id, checking_account_id, credit_card_account_id, amount).';
      }
      const amount = convertedOrNull(() => pyToFloat(a.amount!));
      if (amount === null) return 'Error: Invalid payment amount. Must be a positive number.';
      if (amount.value <= 0) return 'Error: Payment amount must be a positive number.';
      if (!inTable(db, 'accounts', checkingId)) return `Error: Checking account '${pyStr(checkingId!)}' not found.`;
      const checking = getRecord(db, 'accounts', checkingId)!;
      if (!pyEquals(field(checking, 'user_id') ?? null, userId!)) {
        return `Error: Checking account '${checkingId}' does not belong to user '${pyStr(userId!)}'.`;
      }
      if (field(checking, 'class') !== 'checking') return `Error: Account '${checkingId}' is not a checking account.`;
      const checkingBalance = accountBalance(checking);
      if (amount.value > checkingBalance.value) {
        return `Error: Insufficient funds in checking account. Available balance: $${money(checkingBalance)}, requested payment: $${money(amount)}.`;
      }
      if (!inTable(db, 'credit_card_accounts', cardId)) return cardAccountNotFound(cardId);
      const card = getRecord(db, 'credit_card_accounts', cardId)!;
      if (!pyEquals(field(card, 'user_id') ?? null, userId!)) {
        return cardAccountNotOwned(cardId, userId);
      }
      const cardBalance = dollarsOrZero(fieldOr(card, 'current_balance', '$0.00'));
      if (amount.value > cardBalance.value) {
        return `Error: Payment amount ($${money(amount)}) exceeds credit card balance ($${money(cardBalance)}). Please specify an amount up to the outstanding balance.`;
      }
      const newChecking = new PyFloat(checkingBalance.value - amount.value);
      const newCard = new PyFloat(cardBalance.value - amount.value);
      updateRecordInDb(db, 'accounts', checkingId, [['current_holdings', money(newChecking)]]);
      updateRecordInDb(db, 'credit_card_accounts', cardId, [['current_balance', `$${money(newCard)}`]]);
      return [
        'Payment processed successfully!',
        `  - Payment Amount: $${money(amount)}`,
        `  - From Checking Account: ${checkingId}`,
        `  - To Credit Card Account: ${cardId}`,
        `  - New Checking Balance: $${money(newChecking)}`,
        `  - New Credit Card Balance: $${money(newCard)}`,
        'The payment has been applied immediately.',
      ].join('\n');
    },
  },
});
