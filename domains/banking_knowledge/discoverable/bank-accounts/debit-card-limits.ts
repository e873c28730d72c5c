// Raising a debit card's daily ATM or purchase limit for 24 hours (reference:
// request_temporary_debit_card_limit_increase_8374 of KnowledgeTools in tools.py).
import { intRepr, mul, pyStr, sub, toNumber } from '../../../../src/core/py/index.ts';
import type { PyNumber } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { field, getRecord, updateRecordInDb } from '../../db_query.ts';
import type { DbRecord } from '../../db_query.ts';
import { fieldOr, isOneOf } from '../../record-values.ts';
import { daysSince, getTodayStr, parseUsDate } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { asStr, floatOrNull } from './python.ts';
import { inTable } from '../python-values.ts';
import { cardNotFound } from './records.ts';

/** Daily ATM limits by account level (lower-cased), for cards that carry none of their own. */
const DEFAULT_ATM_LIMITS: ReadonlyMap<string, number> = new Map([
  ['blue account', 500],
  ['green account', 600],
  ['light blue account', 400],
  ['green fee-free account', 500],
  ['evergreen account', 750],
  ['bluest account', 1500],
  ['dark green account', 300],
  ['gold years account', 600],
  ['purple account', 1000],
]);


/** The card's current limit of that type, or the refusal when it has none that may be raised. */
const currentLimit = (card: DbRecord, account: DbRecord, limitType: 'atm' | 'purchase'): PyNumber | string => {
  let limit = fieldOr(card, `daily_${limitType}_limit`, null);
  if (limit === null && limitType === 'atm') {
    const level = asStr(fieldOr(account, 'level', ''), 'lower').toLowerCase();
    if (level.includes('light green')) {
      return 'Error: Light Green Account (teen checking) cards have policy-based limits that cannot be modified. The daily ATM withdrawal limit of $150 is fixed by account policy for safety reasons. The customer may request the parent/guardian to withdraw cash from their own account if needed.';
    }
    limit = DEFAULT_ATM_LIMITS.get(level) ?? null;
    if (limit === null) {
      return `Error: Could not determine the default ATM limit for account type '${pyStr(field(account, 'level'))}'. Please verify the account type.`;
    }
  }
  // Only a purchase limit can still be missing here: an ATM limit falls back to the level's default.
  if (limit === null) {
    return `Error: The card does not have a daily purchase limit configured. This may be a restricted account type where limits are set by account policy and cannot be modified.`;
  }
  return limit as PyNumber;
};

export const debitCardLimitTools = defineDiscoverableTools<TransactionalDB>({
  request_temporary_debit_card_limit_increase_8374: {
    type: 'write',
    doc: `Request a temporary 24-hour increase to a debit card's daily ATM or purchase limit.

Args:
    card_id (string): The debit card ID to increase limits for
    limit_type (string): Type of limit to increase: 'atm' for daily ATM withdrawal limit, 'purchase' for daily purchase limit
    new_limit (integer): The requested new temporary limit amount in dollars

Returns:
    Temporary limit increase granted successfully.`,
    params: signature(['card_id', 'limit_type', 'new_limit']),
    run: (db, a) => {
      if (!truthy(a.card_id)) return 'Error: Missing required parameter: card_id.';
      if (!truthy(a.limit_type)) return 'Error: Missing required parameter: limit_type.';
      if (!isOneOf(a.limit_type, ['atm', 'purchase'])) {
        return `Error: Invalid limit_type '${pyStr(a.limit_type)}'. Must be 'atm' or 'purchase'.`;
      }
      const limitType = a.limit_type as 'atm' | 'purchase';
      if (a.new_limit === null) return 'Error: Missing required parameter: new_limit.';
      const asFloat = floatOrNull(a.new_limit);
      if (asFloat === null) return `Error: new_limit must be an integer, got '${pyStr(a.new_limit)}'.`;
      // A fractional limit is refused rather than truncated.
      if (!Number.isInteger(asFloat.value)) return `Error: new_limit must be an integer, got '${pyStr(asFloat)}'.`;
      const newLimit = asFloat.value;
      if (newLimit <= 0) return 'Error: new_limit must be a positive amount.';
      if (!inTable(db, 'debit_cards', a.card_id)) return cardNotFound(a.card_id);
      const cardId = a.card_id;
      const card = getRecord(db, 'debit_cards', cardId)!;
      if (field(card, 'status') !== 'ACTIVE') {
        return `Error: Debit card '${cardId}' is not active. Current status: ${pyStr(field(card, 'status'))}. Only ACTIVE cards can have limit increases.`;
      }
      const accountId = fieldOr(card, 'account_id', null);
      if (!truthy(accountId) || !inTable(db, 'accounts', accountId)) {
        return `Error: Could not find linked account for debit card '${cardId}'.`;
      }
      const account = getRecord(db, 'accounts', accountId)!;
      if (field(account, 'status') !== 'OPEN') {
        return `Error: The linked account '${accountId}' is not in good standing. Account status: ${pyStr(field(account, 'status'))}.`;
      }
      const opened = fieldOr(account, 'date_opened', null);
      const openedDate = truthy(opened) ? parseUsDate(opened) : null;
      if (openedDate && daysSince(openedDate) < 60) {
        return `Error: Account must be at least 60 days old for a temporary limit increase. Account age: ${daysSince(openedDate)} days.`;
      }
      const current = currentLimit(card, account, limitType);
      if (typeof current === 'string') return current;
      const maxAllowed = Math.trunc(toNumber(mul(current, 1.5)));
      if (newLimit > maxAllowed) {
        return `Error: Requested limit $${intRepr(newLimit)} exceeds the maximum allowed temporary increase. Maximum temporary limit is $${intRepr(maxAllowed)} (150% of current $${pyStr(current)} limit).`;
      }
      if (newLimit <= toNumber(current)) {
        return `Error: Requested limit $${intRepr(newLimit)} is not higher than the current limit of $${pyStr(current)}.`;
      }
      updateRecordInDb(db, 'debit_cards', cardId, [
        [`daily_${limitType}_limit`, newLimit],
        [`temporary_${limitType}_limit_increase`, true],
        [`original_${limitType}_limit`, current],
        [`temporary_${limitType}_limit_expires`, getTodayStr()],
      ]);
      const name = limitType === 'atm' ? 'Daily ATM Withdrawal Limit' : 'Daily Purchase Limit';
      return [
        `Temporary ${name} Increase Granted Successfully`,
        `Card ID: ${cardId}`,
        `Previous Limit: $${pyStr(current)}`,
        `New Temporary Limit: $${intRepr(newLimit)}`,
        `Increase Amount: $${pyStr(sub(newLimit, current))}`,
        '',
        'Important Information:',
        '- This temporary increase expires in 24 hours',
        `- After expiration, the limit will revert to $${pyStr(current)}`,
        '- Only one temporary increase is allowed per 24-hour period',
        '',
        'Note: If the customer is at a third-party (non-Rho-Bank) ATM, that ATM may have its own',
        'per-transaction or daily limits that Rho-Bank cannot override. The customer may need to',
        'use a Rho-Bank ATM or make multiple smaller withdrawals at third-party ATMs.',
      ].join('\n');
    },
  },
});
