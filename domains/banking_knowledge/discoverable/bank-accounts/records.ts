// What several bank-account and debit-card tools share: the statuses that count as open, direct record
// writes (`table.data[id] = record`, which replaces a record where add_to_db would refuse), a record's
// listing lines, titled codes and the "not found" texts.
import { dictEntries, pyStr, pyTitle } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import type { TableName, TransactionalDB } from '../../data_model.ts';
import { setItem } from '../../db_query.ts';
import type { DbRecord } from '../../db_query.ts';
import { asStr } from './python.ts';

/** `status in ("ACTIVE", "OPEN")`: an account that can move money. */
export const LIVE_STATUSES = ['OPEN', 'ACTIVE'];

/** `table.data[record_id] = record`: stores the record, replacing one of that id in its place. */
export const putRecord = (db: TransactionalDB, table: TableName, recordId: string, record: Record<string, PyValue>): void => {
  const data = db[table].data;
  const next = setItem(data, recordId, record);
  if (next !== data) db[table].data = next;
};

/** The lines of a record in a listing: `   field: str(value)`. */
export const recordLines = (record: DbRecord): string[] => dictEntries(record).map(([k, v]) => `   ${k}: ${pyStr(v)}`);

/** `code.replace('_', ' ').title()`: "fraud_suspected" → "Fraud Suspected". */
export const titled = (code: PyValue): string => pyTitle(asStr(code, 'replace').replaceAll('_', ' '));

/** The refusal for an id that is not a key of the accounts table. */
export const accountNotFound = (accountId: PyValue | undefined): string => `Error: Account '${pyStr(accountId)}' not found.`;

/** The refusal for an id that is not a key of the debit_cards table. */
export const cardNotFound = (cardId: PyValue | undefined): string => `Error: Debit card '${pyStr(cardId)}' not found.`;
