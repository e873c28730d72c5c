// The agent's discoverable bank-account and debit-card tools, in the reference's definition order (reference:
// `@is_discoverable_tool` methods of KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
import { pyRepr, pyStr } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { truthy } from '../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../data_model.ts';
import { addToDb, field, tableRecords } from '../db_query.ts';
import type { DbRecord } from '../db_query.ts';
import { fieldOr, isOneOf, parseBalance } from '../record-values.ts';
import { daysSince, deterministicId, getTodayStr, parseUsDate } from '../utils.ts';
import { defineDiscoverableTools, signature } from './declare.ts';

const ACCOUNT_TYPES = ['checking', 'savings', 'business_checking', 'business_savings'];
const PERSONAL_CHECKING = ['checking', 'personal_checking'];
const LIVE_STATUSES = ['OPEN', 'ACTIVE'];

/** `acc.get("account_type", acc.get("class", ""))`. */
const accountKind = (account: DbRecord): PyValue => fieldOr(account, 'account_type', fieldOr(account, 'class', ''));

/** Whole days since the account opened; 0 when its date does not parse as MM/DD/YYYY. */
const accountAgeDays = (account: DbRecord): number => {
  const opened = parseUsDate(fieldOr(account, 'date_opened', ''));
  return opened === null ? 0 : daysSince(opened);
};

const isLive = (account: DbRecord): boolean => isOneOf(fieldOr(account, 'status', ''), LIVE_STATUSES);

/** The eligibility rule of each account type that has one; true when the user may open it. */
const eligible = (accountType: PyValue, accounts: readonly DbRecord[]): boolean => {
  if (accountType === 'savings') {
    return accounts.some((acc) => isOneOf(accountKind(acc), PERSONAL_CHECKING) && isLive(acc) && accountAgeDays(acc) >= 14);
  }
  if (accountType === 'business_checking') {
    if (accounts.some((acc) => field(acc, 'status') === 'CLOSED')) return false;
    return accounts.some((acc) => isOneOf(accountKind(acc), PERSONAL_CHECKING) && isLive(acc));
  }
  if (accountType === 'business_savings') {
    for (const acc of accounts) {
      if (parseBalance(fieldOr(acc, 'current_holdings', fieldOr(acc, 'balance', 0))).value < 0) return false;
    }
    return accounts.some((acc) => accountKind(acc) === 'business_checking' && isLive(acc) && accountAgeDays(acc) >= 30);
  }
  return true;
};

export const bankAccountTools = defineDiscoverableTools<TransactionalDB>({
  open_bank_account_4821: {
    type: 'write',
    doc: `Open a new bank account for a customer.

Args:
    user_id (string): The customer's unique identifier in the system
    account_type (string): Type of account to open. Must be one of: 'checking' (personal checking), 'savings' (personal savings), 'business_checking', 'business_savings'
    account_class (string): The full official account class name

Returns:
    Bank account opened successfully.`,
    params: signature(['user_id', 'account_type', 'account_class']),
    run: (db, a) => {
      if (!truthy(a.user_id) || !truthy(a.account_type) || !truthy(a.account_class)) {
        return 'Error: Missing required parameters.';
      }
      if (!isOneOf(a.account_type, ACCOUNT_TYPES)) {
        return `Error: Invalid account_type. Must be one of: ${pyRepr(ACCOUNT_TYPES)}`;
      }
      const accounts = tableRecords(db, 'accounts')
        .map(([, acc]) => acc)
        .filter((acc) => isOneOf(field(acc, 'user_id'), [a.user_id!]));
      if (!eligible(a.account_type!, accounts)) return 'Error: Account eligibility requirements not met.';
      const accountId = deterministicId(`account:${pyStr(a.user_id)}:${pyStr(a.account_type)}:${pyStr(a.account_class)}`);
      const today = getTodayStr();
      const record: Record<string, PyValue> = {
        account_id: accountId,
        user_id: a.user_id!,
        account_type: a.account_type!,
        account_class: a.account_class!,
        current_holdings: '0.00',
        status: 'OPEN',
        date_opened: today,
      };
      if (!addToDb(db, 'accounts', accountId, record)) {
        return `Failed to open account: Account ID '${accountId}' may already exist.`;
      }
      return [
        'Bank account opened successfully!',
        `  - Account ID: ${accountId}`,
        `  - User ID: ${pyStr(a.user_id)}`,
        `  - Account Type: ${pyStr(a.account_type)}`,
        `  - Account Class: ${pyStr(a.account_class)}`,
        '  - Status: OPEN',
        '  - Initial Balance: $0.00',
        `  - Date Opened: ${today}`,
      ].join('\n');
    },
  },
});
