// The credit card transaction dispute (reference: file_credit_card_transaction_dispute_4829 in
// src/tau2/domains/banking_knowledge/tools.py).
import { pyFormatFixed, pyRepr, pyStr } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { addToDb } from '../../db_query.ts';
import { isOneOf } from '../../record-values.ts';
import { generateDisputeId, getTodayStr } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { titledCode } from '../python-values.ts';

const CARD_ACTIONS = ['keep_active', 'cancel_and_reissue'];
const CREDIT_DISPUTE_REASONS = [
  'unauthorized_fraudulent_charge',
  'duplicate_charge',
  'incorrect_amount',
  'goods_services_not_received',
  'goods_services_not_as_described',
  'canceled_subscription_still_charging',
  'refund_never_processed',
];
const RESOLUTIONS = ['full_refund', 'partial_refund'];

export const creditDisputeTools = defineDiscoverableTools<TransactionalDB>({
  file_credit_card_transaction_dispute_4829: {
    type: 'write',
    doc: `File a formal dispute for a credit card transaction.

Args:
    transaction_id (string): The unique identifier for the transaction being disputed
    card_action (string): Flag indicating the card's status. Must be one of: 'keep_active' (card remains active, dispute only), 'cancel_and_reissue' (card is being cancelled and replaced). This is for record-keeping only and does NOT order a replacement card.
    card_last_4_digits (string): Last 4 digits of the credit card number
    full_name (string): Full legal name of the cardholder
    user_id (string): The user's unique identifier in the system
    phone (string): Contact phone number
    email (string): Contact email address
    address (string): Contact mailing address
    contacted_merchant (boolean): Whether the user attempted to resolve the issue with the merchant first
    purchase_date (string): Date when the purchase was made, format MM/DD/YYYY
    issue_noticed_date (string): Date when the user noticed the issue, format MM/DD/YYYY
    dispute_reason (string): Reason for the dispute. Must be one of: 'unauthorized_fraudulent_charge', 'duplicate_charge', 'incorrect_amount', 'goods_services_not_received', 'goods_services_not_as_described', 'canceled_subscription_still_charging', 'refund_never_processed'
    resolution_requested (string): Resolution being requested. Must be one of: 'full_refund', 'partial_refund'
    eligible_for_provisional_credit (boolean): Whether the user is eligible for provisional credit
    partial_refund_amount (number, optional): Amount requested for partial refund (required only if resolution_requested is 'partial_refund')

Returns:
    Credit card transaction dispute filed successfully. A case has been opened and will be reviewed within 10 business days.`,
    params: signature(
      [
        'transaction_id',
        'card_action',
        'card_last_4_digits',
        'full_name',
        'user_id',
        'phone',
        'email',
        'address',
        'contacted_merchant',
        'purchase_date',
        'issue_noticed_date',
        'dispute_reason',
        'resolution_requested',
        'eligible_for_provisional_credit',
      ],
      { partial_refund_amount: null },
    ),
    run: (db, a) => {
      if (!truthy(a.transaction_id) || !truthy(a.user_id)) return 'Error: Missing required parameters.';
      if (!isOneOf(a.card_action, CARD_ACTIONS)) {
        return `Error: Invalid card_action. Must be one of: ${pyRepr(CARD_ACTIONS)}`;
      }
      if (!isOneOf(a.dispute_reason, CREDIT_DISPUTE_REASONS)) {
        return `Error: Invalid dispute_reason. Must be one of: ${pyRepr(CREDIT_DISPUTE_REASONS)}`;
      }
      if (!isOneOf(a.resolution_requested, RESOLUTIONS)) {
        return `Error: Invalid resolution_requested. Must be one of: ${pyRepr(RESOLUTIONS)}`;
      }
      if (a.resolution_requested === 'partial_refund' && a.partial_refund_amount === null) {
        return "Error: partial_refund_amount is required when resolution_requested is 'partial_refund'.";
      }
      const disputeId = generateDisputeId(a.user_id!, a.transaction_id!);
      const record: Record<string, PyValue> = {
        dispute_id: disputeId,
        transaction_id: a.transaction_id!,
        user_id: a.user_id!,
        card_action: a.card_action!,
        card_last_4_digits: a.card_last_4_digits!,
        full_name: a.full_name!,
        phone: a.phone!,
        email: a.email!,
        address: a.address!,
        contacted_merchant: a.contacted_merchant!,
        purchase_date: a.purchase_date!,
        issue_noticed_date: a.issue_noticed_date!,
        dispute_reason: a.dispute_reason!,
        resolution_requested: a.resolution_requested!,
        partial_refund_amount: a.partial_refund_amount!,
        eligible_for_provisional_credit: a.eligible_for_provisional_credit!,
        provisional_credit_given: a.eligible_for_provisional_credit!,
        submitted_at: getTodayStr(),
        status: 'SUBMITTED',
      };
      if (!addToDb(db, 'transaction_disputes', disputeId, record)) {
        return 'Error: Dispute may have already been filed for this transaction.';
      }
      const lines = [
        'Credit card transaction dispute filed successfully. A case has been opened and will be reviewed within 10 business days.',
        '',
        'Executed: file_credit_card_transaction_dispute_4829',
        `Dispute ID: ${disputeId}`,
        `Transaction: ${pyStr(a.transaction_id)}`,
        `Reason: ${titledCode(a.dispute_reason!)}`,
        `Resolution Requested: ${titledCode(a.resolution_requested!)}`,
      ];
      if (truthy(a.partial_refund_amount)) lines.push(`Partial Refund Amount: $${pyFormatFixed(a.partial_refund_amount, 2)}`);
      lines.push(
        truthy(a.eligible_for_provisional_credit)
          ? 'Provisional Credit: ELIGIBLE - Credit will be applied within 2 business days.'
          : 'Provisional Credit: Not eligible at this time.',
      );
      return lines.join('\n');
    },
  },
});
