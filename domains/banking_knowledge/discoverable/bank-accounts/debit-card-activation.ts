// Activating a PENDING debit card: one tool per kind of card (new, replacement, reissue), each refusing the
// others' cards, with the shared checks of the card details (reference: _validate_pin,
// _validate_activation_common and activate_debit_card_8291/8292/8293 in tools.py).
import { pyEquals, pyStr } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { field, getRecord, tableRecords, updateRecordInDb } from '../../db_query.ts';
import type { DbRecord } from '../../db_query.ts';
import { fieldOr, isOneOf } from '../../record-values.ts';
import { getTodayStr } from '../../utils.ts';
import type { DiscoverableTool } from '../declare.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { pinError } from './pin.ts';
import { allTruthy, notDigits } from './python.ts';
import { inTable } from '../python-values.ts';
import { cardNotFound, titled } from './records.ts';

/** The activation tool for each issue_reason. */
const TOOL_FOR_REASON: ReadonlyMap<string, string> = new Map([
  ['new_account', 'activate_debit_card_8291'],
  ['first_card', 'activate_debit_card_8291'],
  ['lost', 'activate_debit_card_8292'],
  ['stolen', 'activate_debit_card_8292'],
  ['fraud', 'activate_debit_card_8292'],
  ['expired', 'activate_debit_card_8293'],
  ['damaged', 'activate_debit_card_8293'],
  ['upgrade', 'activate_debit_card_8293'],
  ['bank_reissue', 'activate_debit_card_8293'],
]);

const ARGS_DOC = `Args:
    card_id (string): The debit card ID to activate
    last_4_digits (string): Last 4 digits of the card number (for verification)
    expiration_date (string): Card expiration date in MM/YY format
    cvv (string): 3-digit CVV from the back of the card
    pin (string): 4-digit PIN chosen by the customer`;

/** The checks every variant makes, in order: the refusal text, or the card id and record. */
const checkActivation = (
  db: TransactionalDB,
  a: Readonly<Record<string, PyValue>>,
  toolName: string,
  allowedReasons: readonly string[],
): string | { cardId: string; card: DbRecord } => {
  if (!allTruthy([a.card_id, a.last_4_digits, a.expiration_date, a.cvv, a.pin])) {
    return 'Error: Missing required parameters. Required: card_id, last_4_digits, expiration_date, cvv, pin.';
  }
  const badPin = pinError(a.pin!);
  if (badPin) return `Error: ${badPin}`;
  if (notDigits(a.cvv, 3)) return 'Error: CVV must be exactly 3 digits.';
  if (notDigits(a.last_4_digits, 4)) return 'Error: Last 4 digits must be exactly 4 digits.';
  if (!inTable(db, 'debit_cards', a.card_id)) return cardNotFound(a.card_id);
  const cardId = a.card_id;
  const card = getRecord(db, 'debit_cards', cardId)!;
  const reason = fieldOr(card, 'issue_reason', 'new_account');
  if (!isOneOf(reason, allowedReasons)) {
    const correct = (typeof reason === 'string' && TOOL_FOR_REASON.get(reason)) || 'unknown';
    return `Error: Wrong activation tool. This card has issue_reason='${pyStr(reason)}'. Please use ${correct} instead of ${toolName}.`;
  }
  const status = field(card, 'status');
  if (status === 'ACTIVE') return `Error: Debit card '${cardId}' is already active.`;
  if (status !== 'PENDING') {
    return `Error: Debit card '${cardId}' cannot be activated. Current status: ${pyStr(status)}. Only PENDING cards can be activated.`;
  }
  if (!pyEquals(fieldOr(card, 'last_4_digits', null), a.last_4_digits!)) {
    return 'Error: Card verification failed. The last 4 digits do not match our records.';
  }
  const accountId = fieldOr(card, 'account_id', null);
  if (truthy(accountId) && inTable(db, 'accounts', accountId) && field(getRecord(db, 'accounts', accountId)!, 'status') !== 'OPEN') {
    return `Error: The linked checking account '${accountId}' is no longer open. Card cannot be activated.`;
  }
  return { cardId, card };
};

/** What a variant does to the account's other ACTIVE cards and what it answers. */
interface Variant {
  readonly doc: string;
  readonly allowedReasons: readonly string[];
  /** The issue_reason assumed when the card has none (null: the variant never reads it). */
  readonly defaultReason: string | null;
  readonly others: (reason: PyValue) => readonly [string, PyValue][];
  readonly answer: (cardId: string, reason: PyValue, others: readonly string[]) => string[];
}

const activation = (toolName: string, variant: Variant): DiscoverableTool<TransactionalDB> => ({
  type: 'write',
  doc: variant.doc,
  params: signature(['card_id', 'last_4_digits', 'expiration_date', 'cvv', 'pin']),
  run: (db, a) => {
    const checked = checkActivation(db, a, toolName, variant.allowedReasons);
    if (typeof checked === 'string') return checked;
    const { cardId, card } = checked;
    const accountId = fieldOr(card, 'account_id', null);
    const reason = variant.defaultReason === null ? null : fieldOr(card, 'issue_reason', variant.defaultReason);
    const today = getTodayStr();
    updateRecordInDb(db, 'debit_cards', cardId, [
      ['status', 'ACTIVE'],
      ['activated_date', today],
    ]);
    const others = tableRecords(db, 'debit_cards')
      .filter(([id, other]) => id !== cardId && pyEquals(fieldOr(other, 'account_id', null), accountId) && field(other, 'status') === 'ACTIVE')
      .map(([id]) => id);
    for (const id of others) updateRecordInDb(db, 'debit_cards', id, variant.others(reason));
    return variant.answer(cardId, reason, others).join('\n');
  },
});

export const debitCardActivationTools = defineDiscoverableTools<TransactionalDB>({
  activate_debit_card_8291: activation('activate_debit_card_8291', {
    doc: `Activate a NEW debit card for a customer. Use ONLY for first-time cards on a checking account (issue_reason = 'new_account' or 'first_card'). For replacement or reissued cards, use the appropriate variant.

${ARGS_DOC}

Returns:
    New debit card activated successfully.`,
    allowedReasons: ['new_account', 'first_card'],
    defaultReason: null,
    others: () => [
      ['status', 'DEACTIVATED'],
      ['deactivated_date', getTodayStr()],
      ['deactivation_reason', 'New card activated'],
    ],
    answer: (cardId, _reason, others) => [
      'New Debit Card Activation Successful',
      `Card ID: ${cardId}`,
      'Status: ACTIVE',
      `Activation Date: ${getTodayStr()}`,
      '',
      'Your card is now ready to use at any ATM or point of sale terminal.',
      'For security, please sign the back of your card.',
      ...(others.length > 0 ? [`\nNote: Previous card(s) have been deactivated: ${others.join(', ')}`] : []),
    ],
  }),
  activate_debit_card_8292: activation('activate_debit_card_8292', {
    doc: `Activate a REPLACEMENT debit card. Use ONLY for cards replacing lost, stolen, or fraud-suspected cards (issue_reason = 'lost', 'stolen', or 'fraud'). For new or reissued cards, use the appropriate variant.

${ARGS_DOC}

Returns:
    Replacement debit card activated successfully.`,
    allowedReasons: ['lost', 'stolen', 'fraud'],
    defaultReason: 'lost',
    others: (reason) => [
      ['status', 'DEACTIVATED'],
      ['deactivated_date', getTodayStr()],
      ['deactivation_reason', `Replacement card activated (${pyStr(reason)})`],
    ],
    answer: (cardId, reason, others) => [
      'Replacement Debit Card Activation Successful',
      `Card ID: ${cardId}`,
      `Replacement Reason: ${titled(reason)}`,
      'Status: ACTIVE',
      `Activation Date: ${getTodayStr()}`,
      '',
      'Your replacement card is now ready to use.',
      '',
      'IMPORTANT SECURITY REMINDERS:',
      '- Please review your recent transactions for any unauthorized charges',
      '- Report any suspicious activity immediately',
      ...(reason === 'fraud' ? ['- Since fraud was suspected, we recommend changing your online banking password'] : []),
      ...(others.length > 0 ? [`\nPrevious card(s) have been deactivated for security: ${others.join(', ')}`] : []),
    ],
  }),
  activate_debit_card_8293: activation('activate_debit_card_8293', {
    doc: `Activate a REISSUED debit card. Use ONLY for cards reissued due to expiration, damage, design upgrade, or bank-initiated replacement (issue_reason = 'expired', 'damaged', 'upgrade', or 'bank_reissue'). For new or replacement cards, use the appropriate variant.

${ARGS_DOC}

Returns:
    Reissued debit card activated successfully.`,
    allowedReasons: ['expired', 'damaged', 'upgrade', 'bank_reissue'],
    defaultReason: 'expired',
    // A reissued card's predecessor keeps working for a 24-hour grace period.
    others: (reason) => [
      ['status', 'GRACE_PERIOD'],
      ['grace_period_ends', getTodayStr()],
      ['deactivation_reason', `Reissued card activated (${pyStr(reason)})`],
    ],
    answer: (cardId, reason, others) => [
      'Reissued Debit Card Activation Successful',
      `Card ID: ${cardId}`,
      `Reissue Reason: ${titled(reason)}`,
      'Status: ACTIVE',
      `Activation Date: ${getTodayStr()}`,
      '',
      'Your reissued card is now ready to use.',
      ...(others.length > 0
        ? [
            `\nNote: Your previous card(s) (${others.join(', ')}) will remain active for 24 hours as a grace period.`,
            'After 24 hours, the old card(s) will be automatically deactivated.',
          ]
        : []),
      ...(isOneOf(reason, ['expired', 'bank_reissue'])
        ? ['\nReminder: If your card number changed, please update any recurring payments with your new card details.']
        : []),
    ],
  }),
});
