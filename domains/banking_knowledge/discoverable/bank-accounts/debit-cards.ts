// Managing issued debit cards: closing, freezing and unfreezing, clearing fraud alerts and velocity blocks
// (reference: close_debit_card_4721, freeze_debit_card_3892, unfreeze_debit_card_3893 and
// clear_debit_card_fraud_alert_4892 of KnowledgeTools in tools.py).
import { pyRepr, pyStr } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { field, getRecord, updateRecordInDb } from '../../db_query.ts';
import { fieldOr, isOneOf } from '../../record-values.ts';
import { getTodayStr } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { asStr } from './python.ts';
import { inTable } from '../python-values.ts';
import { cardNotFound, titled } from './records.ts';

const CLOSURE_REASONS = ['lost', 'stolen', 'fraud_suspected', 'damaged', 'no_longer_needed', 'account_closing'];
const ALERT_CLEARANCES = ['customer_verified', 'velocity_clear'];

const missingCardId = 'Error: Missing required parameter: card_id.';

export const debitCardTools = defineDiscoverableTools<TransactionalDB>({
  close_debit_card_4721: {
    type: 'write',
    doc: `Close or cancel a debit card permanently.

Args:
    card_id (string): The debit card ID to close
    reason (string): Reason for closing: lost, stolen, fraud_suspected, damaged, no_longer_needed, or account_closing

Returns:
    Debit card closed successfully.`,
    params: signature(['card_id', 'reason']),
    run: (db, a) => {
      if (!truthy(a.card_id) || !truthy(a.reason)) return 'Error: Missing required parameters. Required: card_id, reason.';
      const reason = asStr(a.reason, 'lower').toLowerCase();
      if (!CLOSURE_REASONS.includes(reason)) return `Error: Invalid reason. Must be one of: ${pyRepr(CLOSURE_REASONS)}`;
      if (!inTable(db, 'debit_cards', a.card_id)) return cardNotFound(a.card_id);
      const cardId = a.card_id;
      const previous = field(getRecord(db, 'debit_cards', cardId)!, 'status');
      if (!isOneOf(previous, ['ACTIVE', 'PENDING'])) {
        return `Error: Debit card '${cardId}' cannot be closed. Current status: ${pyStr(previous)}. Only ACTIVE or PENDING cards can be closed.`;
      }
      const today = getTodayStr();
      updateRecordInDb(db, 'debit_cards', cardId, [
        ['status', 'CLOSED'],
        ['closed_date', today],
        ['closure_reason', reason],
      ]);
      const lines = [
        'Debit Card Closed Successfully',
        `Card ID: ${cardId}`,
        `Previous Status: ${pyStr(previous)}`,
        'New Status: CLOSED',
        `Closure Reason: ${titled(reason)}`,
        `Closure Date: ${today}`,
        '',
      ];
      if (['lost', 'stolen', 'fraud_suspected'].includes(reason)) {
        lines.push('IMPORTANT: This card has been immediately deactivated for security.', 'Any pending transactions may still be processed.');
        if (reason === 'fraud_suspected') {
          lines.push(
            'Please advise the customer to review recent transactions and file disputes for any unauthorized charges.',
            'Also recommend changing their online banking password.',
          );
        }
      }
      lines.push(
        '',
        'Note: This card cannot be reactivated. If the customer needs a new card, they can order one through the standard ordering process.',
        'Any recurring payments linked to this card will need to be updated with new payment information.',
      );
      return lines.join('\n');
    },
  },
  freeze_debit_card_3892: {
    type: 'write',
    doc: `Temporarily freeze a debit card. The card can be unfrozen later.

Args:
    card_id (string): The debit card ID to freeze

Returns:
    Debit card frozen successfully.`,
    params: signature(['card_id']),
    run: (db, a) => {
      if (!truthy(a.card_id)) return missingCardId;
      if (!inTable(db, 'debit_cards', a.card_id)) return cardNotFound(a.card_id);
      const cardId = a.card_id;
      const status = field(getRecord(db, 'debit_cards', cardId)!, 'status');
      if (status === 'FROZEN') return `Error: Debit card '${cardId}' is already frozen.`;
      if (status !== 'ACTIVE') {
        return `Error: Debit card '${cardId}' cannot be frozen. Current status: ${pyStr(status)}. Only ACTIVE cards can be frozen.`;
      }
      const today = getTodayStr();
      updateRecordInDb(db, 'debit_cards', cardId, [
        ['status', 'FROZEN'],
        ['frozen_date', today],
      ]);
      return [
        'Debit Card Frozen Successfully',
        `Card ID: ${cardId}`,
        'Status: FROZEN',
        `Frozen Date: ${today}`,
        '',
        'While frozen:',
        '- All new purchase transactions will be declined',
        '- Recurring payments and subscriptions will be declined',
        '- Pending transactions already authorized may still process',
        '',
        'To unfreeze, the customer can call customer service or use the mobile app.',
        'If the card is confirmed lost or stolen, recommend closing the card permanently instead.',
      ].join('\n');
    },
  },
  unfreeze_debit_card_3893: {
    type: 'write',
    doc: `Unfreeze a previously frozen debit card.

Args:
    card_id (string): The debit card ID to unfreeze

Returns:
    Debit card unfrozen successfully.`,
    params: signature(['card_id']),
    run: (db, a) => {
      if (!truthy(a.card_id)) return missingCardId;
      if (!inTable(db, 'debit_cards', a.card_id)) return cardNotFound(a.card_id);
      const cardId = a.card_id;
      const card = getRecord(db, 'debit_cards', cardId)!;
      const status = field(card, 'status');
      if (status === 'ACTIVE') return `Error: Debit card '${cardId}' is already active.`;
      if (status !== 'FROZEN') {
        return `Error: Debit card '${cardId}' cannot be unfrozen. Current status: ${pyStr(status)}. Only FROZEN cards can be unfrozen.`;
      }
      const accountId = fieldOr(card, 'account_id', null);
      if (truthy(accountId) && inTable(db, 'accounts', accountId) && field(getRecord(db, 'accounts', accountId)!, 'status') !== 'OPEN') {
        return `Error: The linked checking account '${accountId}' is no longer open. Card cannot be unfrozen.`;
      }
      const today = getTodayStr();
      updateRecordInDb(db, 'debit_cards', cardId, [
        ['status', 'ACTIVE'],
        ['unfrozen_date', today],
      ]);
      return [
        'Debit Card Unfrozen Successfully',
        `Card ID: ${cardId}`,
        'Status: ACTIVE',
        `Unfrozen Date: ${today}`,
        '',
        'The card is now active and ready to use immediately.',
        'All transactions will process normally.',
      ].join('\n');
    },
  },
  clear_debit_card_fraud_alert_4892: {
    type: 'write',
    doc: `Clear a fraud alert or velocity block on a debit card.

Args:
    card_id (string): The debit card ID to clear the alert/block for
    reason (string): Reason for clearing: 'customer_verified' (for fraud alerts after customer verification) or 'velocity_clear' (for velocity blocks after identity verification)

Returns:
    Fraud alert/velocity block cleared successfully.`,
    params: signature(['card_id', 'reason']),
    run: (db, a) => {
      if (!truthy(a.card_id)) return missingCardId;
      if (!truthy(a.reason)) return 'Error: Missing required parameter: reason.';
      if (!isOneOf(a.reason, ALERT_CLEARANCES)) {
        return `Error: Invalid reason '${pyStr(a.reason)}'. Must be one of: ${ALERT_CLEARANCES.join(', ')}`;
      }
      if (!inTable(db, 'debit_cards', a.card_id)) return cardNotFound(a.card_id);
      const cardId = a.card_id;
      const card = getRecord(db, 'debit_cards', cardId)!;
      const today = getTodayStr();
      if (a.reason === 'velocity_clear') {
        if (!truthy(fieldOr(card, 'velocity_blocked', false))) {
          return `Error: Debit card '${cardId}' does not have an active velocity block.`;
        }
        updateRecordInDb(db, 'debit_cards', cardId, [
          ['velocity_blocked', false],
          ['velocity_cleared_date', today],
        ]);
        return [
          'Velocity Block Cleared Successfully',
          `Card ID: ${cardId}`,
          `Cleared Date: ${today}`,
          '',
          'The card is now unblocked and ready for normal use.',
          'The velocity monitoring will continue - if the same unusual patterns recur,',
          'the card may be blocked again automatically.',
        ].join('\n');
      }
      if (!truthy(fieldOr(card, 'fraud_alert_active', false))) {
        return `Error: Debit card '${cardId}' does not have an active fraud alert.`;
      }
      if (field(card, 'alert_source') === 'bank_initiated') {
        return "Error: BANK_INITIATED_ALERT - This fraud alert was initiated by the bank's fraud detection system and cannot be cleared by customer service agents. Please transfer the customer to the security team using transfer_to_human_agents.";
      }
      updateRecordInDb(db, 'debit_cards', cardId, [
        ['fraud_alert_active', false],
        ['alert_source', null],
        ['fraud_alert_cleared_date', today],
      ]);
      return [
        'Fraud Alert Cleared Successfully',
        `Card ID: ${cardId}`,
        `Cleared Date: ${today}`,
        '',
        'The fraud alert has been removed from the card.',
        'All transactions will process normally.',
        '',
        'Remind the customer to review recent transactions and report any unauthorized charges.',
      ].join('\n');
    },
  },
});
