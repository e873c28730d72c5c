// Listing a checking account's debit cards, most recently issued first (reference:
// get_debit_cards_by_account_id_7823 of KnowledgeTools in tools.py).
import { compare, dictEntries, dumpsPy } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { getRecord, tableRecords } from '../../db_query.ts';
import type { DbRecord } from '../../db_query.ts';
import { fieldOr } from '../../record-values.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { asStr } from './python.ts';
import { inTable } from '../python-values.ts';
import { accountNotFound } from './records.ts';

/** A card as the listing shows it: `card_id` first, `last_4_digits` and the issue date renamed (moved last). */
const listedCard = (cardId: string, card: DbRecord): Map<string, PyValue> => {
  const info = new Map<string, PyValue>([['card_id', cardId], ...dictEntries(card)]);
  const rename = (from: string, to: string): void => {
    const value = info.get(from)!;
    info.delete(from);
    info.set(to, value);
  };
  if (info.has('last_4_digits') && !info.has('card_number_last_4')) rename('last_4_digits', 'card_number_last_4');
  if (info.has('issue_date') && !info.has('date_issued')) rename('issue_date', 'date_issued');
  else if (info.has('created_date') && !info.has('date_issued')) rename('created_date', 'date_issued');
  return info;
};

export const debitCardListingTools = defineDiscoverableTools<TransactionalDB>({
  get_debit_cards_by_account_id_7823: {
    type: 'read',
    doc: `Retrieve all debit cards associated with a checking account. Returns card details including status, issue reason, and expiration date.

Args:
    account_id (string): The checking account ID to retrieve debit cards for

Returns:
    Debit cards retrieved successfully.`,
    params: signature(['account_id']),
    run: (db, a) => {
      if (!truthy(a.account_id)) return "Error: Missing required parameter 'account_id'.";
      if (!inTable(db, 'accounts', a.account_id)) return accountNotFound(a.account_id);
      const accountId = a.account_id;
      const accountClass = asStr(fieldOr(getRecord(db, 'accounts', accountId)!, 'class', ''), 'lower').toLowerCase();
      if (!['checking', 'business_checking'].includes(accountClass)) {
        return `Error: Account '${accountId}' is not a checking account. Debit cards are only available for checking accounts.`;
      }
      const cards = tableRecords(db, 'debit_cards')
        .filter(([, card]) => fieldOr(card, 'account_id', null) === accountId)
        .map(([cardId, card]) => listedCard(cardId, card));
      if (cards.length === 0) return `No debit cards found for account '${accountId}'.`;
      // Most recently issued first, comparing the MM/DD/YYYY texts as strings; ties keep the stored order.
      const issued = (card: Map<string, PyValue>): PyValue => {
        const date = card.get('date_issued');
        return truthy(date) ? date! : '';
      };
      cards.sort((x, y) => compare(issued(y), issued(x)));
      return dumpsPy(cards, { indent: 2 });
    },
  },
});
