// Debit card disputes under Regulation E, their status listing and the debit card's recurring-payment block
// (reference: `@is_discoverable_tool` methods of KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
import { pyFormatFixed, pyRepr, pyStr, toNumber } from '../../../../src/core/py/index.ts';
import type { PyNumber, PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { addToDb, getRecord, updateRecordInDb } from '../../db_query.ts';
import { fieldOr, isOneOf } from '../../record-values.ts';
import { generateDisputeId, getTodayStr } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { inTable, isAtMostZero, pyUpper, titledCode } from '../python-values.ts';
import { historyTool } from './listings.ts';

const DEBIT_DISPUTE_CATEGORIES = [
  'unauthorized_transaction',
  'atm_cash_discrepancy',
  'atm_deposit_not_credited',
  'duplicate_charge',
  'incorrect_amount',
  'goods_services_not_received',
  'recurring_charge_after_cancellation',
  'card_present_fraud',
  'card_not_present_fraud',
];
const FRAUD_CATEGORIES = ['unauthorized_transaction', 'card_present_fraud', 'card_not_present_fraud'];
const DEBIT_TRANSACTION_TYPES = [
  'pin_purchase',
  'signature_purchase',
  'online_purchase',
  'atm_withdrawal',
  'atm_deposit',
  'recurring_payment',
  'person_to_person',
];
const PIN_STATUSES = ['yes_shared', 'yes_observed', 'no', 'unknown'];
const DEBIT_CARD_ACTIONS = ['keep_active', 'freeze_pending_investigation', 'close_and_reissue'];

/** The debit dispute's parameters, in the reference's order. */
const DEBIT_PARAMS = [
  'transaction_id',
  'account_id',
  'card_id',
  'user_id',
  'dispute_category',
  'transaction_date',
  'discovery_date',
  'disputed_amount',
  'transaction_type',
  'card_in_possession',
  'pin_compromised',
  'contacted_merchant',
  'police_report_filed',
  'written_statement_provided',
  'provisional_credit_eligible',
  'customer_max_liability_amount',
  'card_action',
];
const DEBIT_FLAGS = ['card_in_possession', 'contacted_merchant', 'police_report_filed', 'written_statement_provided'];
/** The arguments that must all be truthy: all but the booleans and the liability amount (which may be 0). */
const DEBIT_REQUIRED = DEBIT_PARAMS.filter(
  (name) => ![...DEBIT_FLAGS, 'provisional_credit_eligible', 'customer_max_liability_amount'].includes(name),
);

export const debitDisputeTools = defineDiscoverableTools<TransactionalDB>({
  file_debit_card_transaction_dispute_6281: {
    type: 'write',
    doc: `File a formal dispute for a debit card transaction under Regulation E. Debit card disputes affect actual bank funds and have different liability rules based on reporting timing.

Args:
    transaction_id (string): The unique identifier for the transaction being disputed
    account_id (string): The checking account ID linked to the debit card
    card_id (string): The debit card ID
    user_id (string): The user's unique identifier in the system
    dispute_category (string): Category of the dispute. Must be one of: 'unauthorized_transaction', 'atm_cash_discrepancy', 'atm_deposit_not_credited', 'duplicate_charge', 'incorrect_amount', 'goods_services_not_received', 'recurring_charge_after_cancellation', 'card_present_fraud', 'card_not_present_fraud'
    transaction_date (string): Date when the transaction occurred, format MM/DD/YYYY
    discovery_date (string): Date when the user first noticed the issue, format MM/DD/YYYY
    disputed_amount (number): The dollar amount being disputed
    transaction_type (string): Type of transaction. Must be one of: 'pin_purchase', 'signature_purchase', 'online_purchase', 'atm_withdrawal', 'atm_deposit', 'recurring_payment', 'person_to_person'
    card_in_possession (boolean): Whether the customer still has their physical debit card in their possession
    pin_compromised (string): Whether the customer's PIN may have been compromised. Must be one of: 'yes_shared', 'yes_observed', 'no', 'unknown'
    contacted_merchant (boolean): Whether the user attempted to resolve the issue with the merchant first
    police_report_filed (boolean): Whether a police report has been filed (recommended for fraud over $500)
    written_statement_provided (boolean): Whether the customer has provided a written statement describing what happened (required for Reg E provisional credit)
    provisional_credit_eligible (boolean): Whether the user is eligible for provisional credit based on Debit Card Provisional Credit Guidelines
    customer_max_liability_amount (number): The maximum dollar amount the customer could be liable for based on Regulation E reporting timing rules and the disputed amount. Use -1 for unlimited liability.
    card_action (string): Action to take on the card. Must be one of: 'keep_active', 'freeze_pending_investigation', 'close_and_reissue'

Returns:
    Debit card transaction dispute filed successfully. A case has been opened and provisional credit determination has been recorded.`,
    params: signature(DEBIT_PARAMS),
    run: (db, a) => {
      if (!DEBIT_REQUIRED.every((name) => truthy(a[name]))) return 'Error: Missing required parameters.';
      if (a.customer_max_liability_amount === null) return 'Error: customer_max_liability_amount is required.';
      if (DEBIT_FLAGS.some((name) => a[name] === null)) {
        return 'Error: card_in_possession, contacted_merchant, police_report_filed, and written_statement_provided are required boolean fields.';
      }
      if (!isOneOf(a.dispute_category, DEBIT_DISPUTE_CATEGORIES)) {
        return `Error: Invalid dispute_category. Must be one of: ${pyRepr(DEBIT_DISPUTE_CATEGORIES)}`;
      }
      if (!isOneOf(a.transaction_type, DEBIT_TRANSACTION_TYPES)) {
        return `Error: Invalid transaction_type. Must be one of: ${pyRepr(DEBIT_TRANSACTION_TYPES)}`;
      }
      if (!isOneOf(a.pin_compromised, PIN_STATUSES)) {
        return `Error: Invalid pin_compromised. Must be one of: ${pyRepr(PIN_STATUSES)}`;
      }
      if (!isOneOf(a.card_action, DEBIT_CARD_ACTIONS)) {
        return `Error: Invalid card_action. Must be one of: ${pyRepr(DEBIT_CARD_ACTIONS)}`;
      }
      if (isAtMostZero(a.disputed_amount)) return 'Error: disputed_amount must be a positive number.';
      const disputeId = generateDisputeId(a.user_id!, a.transaction_id!);
      const isFraud = isOneOf(a.dispute_category, FRAUD_CATEGORIES);
      const pinShared = a.pin_compromised === 'yes_shared';
      const eligible = truthy(a.provisional_credit_eligible);
      const record: Record<string, PyValue> = {
        dispute_id: disputeId,
        transaction_id: a.transaction_id!,
        account_id: a.account_id!,
        card_id: a.card_id!,
        user_id: a.user_id!,
        dispute_category: a.dispute_category!,
        transaction_date: a.transaction_date!,
        discovery_date: a.discovery_date!,
        disputed_amount: a.disputed_amount!,
        transaction_type: a.transaction_type!,
        card_in_possession: a.card_in_possession!,
        pin_compromised: a.pin_compromised!,
        contacted_merchant: a.contacted_merchant!,
        police_report_filed: a.police_report_filed!,
        written_statement_provided: a.written_statement_provided!,
        provisional_credit_eligible: a.provisional_credit_eligible!,
        provisional_credit_issued: a.provisional_credit_eligible!,
        provisional_credit_amount: eligible ? a.disputed_amount! : null,
        customer_max_liability_amount: a.customer_max_liability_amount!,
        card_action: a.card_action!,
        is_fraud_category: isFraud,
        pin_shared_voluntarily: pinShared,
        submitted_at: getTodayStr(),
        status: 'OPEN',
      };
      if (!addToDb(db, 'debit_card_disputes', disputeId, record)) {
        return 'Error: Dispute may have already been filed for this transaction.';
      }
      const amount = pyFormatFixed(a.disputed_amount, 2);
      const lines = [
        `Dispute ID: ${disputeId}`,
        `Transaction: ${pyStr(a.transaction_id!)}`,
        `Account: ${pyStr(a.account_id!)}`,
        `Category: ${titledCode(a.dispute_category)}`,
        `Disputed Amount: $${amount}`,
        `Card Action: ${titledCode(a.card_action)}`,
        eligible
          ? `Provisional Credit: ISSUED - $${amount} credited within 10 business days per Regulation E.`
          : 'Provisional Credit: Not eligible - see Debit Card Provisional Credit Guidelines for details.',
      ];
      if (pinShared) {
        lines.push('WARNING: Customer indicated PIN was shared voluntarily. This may affect liability determination.');
      }
      if (isFraud && !truthy(a.police_report_filed) && toNumber(a.disputed_amount as PyNumber) > 500) {
        lines.push('RECOMMENDATION: For fraud disputes over $500, filing a police report is recommended.');
      }
      return lines.join('\n');
    },
  },
  set_debit_card_recurring_block_7382: {
    type: 'write',
    doc: `Block or unblock all recurring payments on a debit card. When blocked, all recurring/subscription charges will be declined. One-time purchases are not affected.

Args:
    card_id (string): The debit card ID to update
    block_recurring (boolean): True to block all recurring payments, False to unblock/allow recurring payments

Returns:
    Debit card recurring payment settings updated successfully.`,
    params: signature(['card_id', 'block_recurring']),
    run: (db, a) => {
      if (!truthy(a.card_id)) return 'Error: Missing required parameter: card_id';
      const card = inTable(db, 'debit_cards', a.card_id) ? getRecord(db, 'debit_cards', a.card_id) : undefined;
      if (!card || !truthy(card)) return `Error: Debit card '${pyStr(a.card_id!)}' not found.`;
      const status = pyUpper(fieldOr(card, 'status', ''));
      if (status !== 'ACTIVE') {
        return `Error: Cannot update recurring block settings for a card with status '${status}'. Card must be ACTIVE.`;
      }
      const cardId = a.card_id as string;
      updateRecordInDb(db, 'debit_cards', cardId, [['recurring_blocked', a.block_recurring!]]);
      return truthy(a.block_recurring)
        ? `Recurring payments BLOCKED for debit card ${cardId}.\nAll recurring/subscription charges will be declined.\nOne-time purchases are not affected.\nThis change takes effect within 24 hours.`
        : `Recurring payments UNBLOCKED for debit card ${cardId}.\nRecurring/subscription charges will now be allowed.\nThis change takes effect within 24 hours.`;
    },
  },
  get_debit_dispute_status_7483: historyTool({
    tool: 'get_debit_dispute_status_7483',
    doc: `Retrieve a user's debit card dispute history from the debit_card_disputes table. Returns all debit card disputes filed by the user, including dispute IDs, categories, amounts, statuses, and provisional credit information.

Args:
    user_id (string): The user's unique identifier in the system

Returns:
    Debit card dispute history retrieved successfully.`,
    table: 'debit_card_disputes',
    field: 'user_id',
    done: 'Debit card dispute history retrieved successfully.',
    heading: (userId) => `Debit card dispute history for user ${userId}:`,
    none: 'No debit card disputes found for this user.',
  }),
});
