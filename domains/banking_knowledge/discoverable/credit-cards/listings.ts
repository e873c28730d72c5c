// The database look-ups several credit-card tools share: a query by one field through the query tool (its
// text decides, as in the reference, so a value that breaks the constraint JSON counts as found), the
// card-account refusals, and the history tools' report around that listing.
import { pyStr } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TableName, TransactionalDB } from '../../data_model.ts';
import { queryDatabaseTool } from '../../db_query.ts';
import { signature } from '../declare.ts';
import type { DiscoverableTool } from '../declare.ts';

/** `query_database_tool(table, f'{{"<field>": "{value}"}}')`: the value is pasted into the JSON text. */
const listBy = (db: TransactionalDB, table: TableName, field: string, value: PyValue | undefined): string =>
  queryDatabaseTool(db, table, `{"${field}": "${pyStr(value ?? null)}"}`);

const isEmptyListing = (listing: string): boolean =>
  listing.includes('No results found') || listing.includes('No records found');

/** The existence check before a write: the query for the card account finds nothing. */
export const cardAccountMissing = (db: TransactionalDB, creditCardAccountId: PyValue | undefined): boolean =>
  isEmptyListing(listBy(db, 'credit_card_accounts', 'account_id', creditCardAccountId));

export const cardAccountNotFound = (accountId: PyValue | undefined): string =>
  `Error: Credit card account '${pyStr(accountId ?? null)}' not found.`;

export const cardAccountNotOwned = (accountId: string, userId: PyValue | undefined): string =>
  `Error: Credit card account '${accountId}' does not belong to user '${pyStr(userId ?? null)}'.`;

/** One history tool: the records of `table` whose `field` equals the tool's one argument, of that name. */
export interface HistoryReport {
  readonly tool: string;
  readonly doc: string;
  readonly table: TableName;
  readonly field: string;
  /** The first line of the report. */
  readonly done: string;
  /** The line naming whose history follows, given the argument as the f-string shows it. */
  readonly heading: (value: string) => string;
  /** The line in place of the listing when nothing matched. */
  readonly none: string;
}

/** The history tool: a missing argument, else the report with the listing or the "none" line. */
export const historyTool = (report: HistoryReport): DiscoverableTool<TransactionalDB> => ({
  type: 'read',
  doc: report.doc,
  params: signature([report.field]),
  run: (db, { [report.field]: value }) => {
    if (!truthy(value)) return `Error: Missing required parameter: ${report.field}`;
    const listing = listBy(db, report.table, report.field, value);
    return [
      report.done,
      '',
      `Executed: ${report.tool}`,
      report.heading(pyStr(value!)),
      isEmptyListing(listing) ? `\n${report.none}` : listing,
    ].join('\n');
  },
});
