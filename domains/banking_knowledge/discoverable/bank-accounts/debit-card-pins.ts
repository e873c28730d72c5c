// Resetting a forgotten debit-card PIN and changing a known one (reference: reset_debit_card_pin_6284 and
// change_debit_card_pin_6285 of KnowledgeTools in tools.py).
import { pyEquals, pyStr } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { field, getRecord, updateRecordInDb } from '../../db_query.ts';
import type { DbRecord } from '../../db_query.ts';
import { fieldOr } from '../../record-values.ts';
import { getTodayStr } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { pinError } from './pin.ts';
import { cardNotFound } from './records.ts';
import { allTruthy, notDigits } from './python.ts';
import { inTable } from '../python-values.ts';

/** The card by its id, or the refusal when there is none. */
const cardById = (db: TransactionalDB, cardId: PyValue | undefined): string | { id: string; card: DbRecord } => {
  if (!inTable(db, 'debit_cards', cardId)) return cardNotFound(cardId);
  return { id: cardId, card: getRecord(db, 'debit_cards', cardId)! };
};

/** The refusal for a card that is not ACTIVE ("reset"/"reset", "change"/"changed"), or null. */
const notActive = (card: DbRecord, action: string, done: string): string | null => {
  const status = field(card, 'status');
  return status === 'ACTIVE'
    ? null
    : `Error: Cannot ${action} PIN. Card status is ${pyStr(status)}. Only ACTIVE cards can have their PIN ${done}.`;
};

const NEW_PIN_NOTES = [
  'Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.',
  '',
  'Security reminder: Never share your PIN with anyone.',
];

export const debitCardPinTools = defineDiscoverableTools<TransactionalDB>({
  reset_debit_card_pin_6284: {
    type: 'write',
    doc: `Reset a debit card PIN when the customer has forgotten it.

Args:
    card_id (string): The debit card ID to reset PIN for
    last_4_digits (string): Last 4 digits of the card number (for verification)
    new_pin (string): The new 4-digit PIN chosen by the customer

Returns:
    Debit card PIN reset successfully.`,
    params: signature(['card_id', 'last_4_digits', 'new_pin']),
    run: (db, a) => {
      if (!allTruthy([a.card_id, a.last_4_digits, a.new_pin])) {
        return 'Error: Missing required parameters. Required: card_id, last_4_digits, new_pin.';
      }
      if (notDigits(a.last_4_digits, 4)) return 'Error: Last 4 digits must be exactly 4 digits.';
      const badPin = pinError(a.new_pin!);
      if (badPin) return `Error: ${badPin}`;
      const found = cardById(db, a.card_id);
      if (typeof found === 'string') return found;
      if (!pyEquals(fieldOr(found.card, 'last_4_digits', null), a.last_4_digits!)) {
        return 'Error: Card verification failed. The last 4 digits do not match our records.';
      }
      const refusal = notActive(found.card, 'reset', 'reset');
      if (refusal) return refusal;
      const today = getTodayStr();
      // A reset also lifts a lock from failed PIN attempts.
      updateRecordInDb(db, 'debit_cards', found.id, [
        ['pin_last_changed', today],
        ['pin_locked', false],
        ['pin_attempts_remaining', 3],
      ]);
      return [
        'Debit Card PIN Reset Successfully',
        `Card ID: ${found.id}`,
        `PIN Changed: ${today}`,
        '',
        'The new PIN is effective immediately.',
        'Your card has been unlocked and is ready to use.',
        ...NEW_PIN_NOTES,
      ].join('\n');
    },
  },
  change_debit_card_pin_6285: {
    type: 'write',
    doc: `Change a debit card PIN when the customer knows their current PIN.

Args:
    card_id (string): The debit card ID to change PIN for
    current_pin (string): The customer's current 4-digit PIN
    new_pin (string): The new 4-digit PIN chosen by the customer

Returns:
    Debit card PIN changed successfully.`,
    params: signature(['card_id', 'current_pin', 'new_pin']),
    run: (db, a) => {
      if (!allTruthy([a.card_id, a.current_pin, a.new_pin])) {
        return 'Error: Missing required parameters. Required: card_id, current_pin, new_pin.';
      }
      if (notDigits(a.current_pin, 4)) return 'Error: Current PIN must be exactly 4 digits.';
      const badPin = pinError(a.new_pin!);
      if (badPin) return `Error: ${badPin}`;
      if (a.current_pin === a.new_pin) return 'Error: New PIN must be different from current PIN.';
      const found = cardById(db, a.card_id);
      if (typeof found === 'string') return found;
      const refusal = notActive(found.card, 'change', 'changed');
      if (refusal) return refusal;
      const today = getTodayStr();
      updateRecordInDb(db, 'debit_cards', found.id, [['pin_last_changed', today]]);
      return [
        'Debit Card PIN Changed Successfully',
        `Card ID: ${found.id}`,
        `PIN Changed: ${today}`,
        '',
        'The new PIN is effective immediately.',
        ...NEW_PIN_NOTES,
      ].join('\n');
    },
  },
});
