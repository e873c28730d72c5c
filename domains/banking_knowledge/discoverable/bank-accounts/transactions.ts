// A bank account's transaction history, most recent first (reference: get_bank_account_transactions_9173 of
// KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
import { pyStr } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { queryDb } from '../../db_query.ts';
import type { DbRecord } from '../../db_query.ts';
import { fieldOr } from '../../record-values.ts';
import { parseUsDate } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { inTable } from '../python-values.ts';
import { accountNotFound, recordLines } from './records.ts';

/** `strptime(text, "%m/%d/%Y %H:%M:%S")`'s pattern (a space in the format matches any run of whitespace). */
const DATE_TIME =
  /^(1[0-2]|0[1-9]|[1-9])\/(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])\/(\d\d\d\d)\s+(2[0-3]|[0-1]\d|\d):([0-5]\d|\d):(6[0-1]|[0-5]\d|\d)$/;

/** One number that orders datetimes as Python compares them (from year 1, which is `datetime.min`). */
const sortKey = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number =>
  ((((y * 13 + mo) * 32 + d) * 24 + h) * 60 + mi) * 60 + s;

const DATETIME_MIN = sortKey(1, 1, 1);

/**
 * The sort key of a transaction's date: `"%m/%d/%Y %H:%M:%S"`, else `"%m/%d/%Y"`, else `datetime.min`.
 * strptime matches seconds up to 61, then building the datetime refuses 60 and 61.
 */
const dateKey = (record: DbRecord): number => {
  const text = pyStr(fieldOr(record, 'date', ''));
  const match = DATE_TIME.exec(text);
  if (match && Number(match[6]) < 60) {
    const date = parseUsDate(`${match[1]}/${match[2]}/${match[3]}`);
    if (date) return sortKey(date.year, date.month, date.day, Number(match[4]), Number(match[5]), Number(match[6]));
  }
  const date = parseUsDate(text);
  return date ? sortKey(date.year, date.month, date.day) : DATETIME_MIN;
};

export const transactionTools = defineDiscoverableTools<TransactionalDB>({
  get_bank_account_transactions_9173: {
    type: 'read',
    doc: `Retrieve the transaction history for a bank account.

Transactions are returned in reverse chronological order (most recent
first).

Args:
    account_id (string): The bank account ID to retrieve transactions for

Returns:
    Bank account transactions retrieved successfully.`,
    params: signature(['account_id']),
    run: (db, a) => {
      if (!truthy(a.account_id)) return 'Error: Missing required parameter: account_id';
      if (!inTable(db, 'accounts', a.account_id)) return accountNotFound(a.account_id);
      const accountId = a.account_id;
      // sorted(…, reverse=True) is stable: records of the same date keep their stored order.
      const transactions = queryDb(db, 'bank_account_transaction_history', [['account_id', accountId]])
        .map((entry) => ({ entry, key: dateKey(entry[1]) }))
        .sort((x, y) => y.key - x.key)
        .map(({ entry }) => entry);
      const head = [
        'Bank account transactions retrieved successfully.',
        '',
        'Executed: get_bank_account_transactions_9173',
        `Transactions for account ${accountId}:`,
      ];
      if (transactions.length === 0) return [...head, '\nNo transactions found for this account.'].join('\n');
      const lines = [`Found ${transactions.length} record(s) in 'bank_account_transaction_history':\n`];
      transactions.forEach(([id, record], i) => lines.push(`${i + 1}. Record ID: ${id}`, ...recordLines(record), ''));
      return [...head, lines.join('\n')].join('\n');
    },
  },
});
