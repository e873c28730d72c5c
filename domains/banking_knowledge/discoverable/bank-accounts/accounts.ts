// Opening, closing and listing bank accounts (reference: open_bank_account_4821, close_bank_account_7392 and
// get_all_user_accounts_by_user_id_3847 of KnowledgeTools in src/tau2/domains/banking_knowledge/tools.py).
import { pyFormatFixed, pyRepr, pyStr } from '../../../../src/core/py/index.ts';
import type { PyValue } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { addToDb, field, getRecord, queryDatabaseTool, tableRecords, updateRecordInDb } from '../../db_query.ts';
import type { DbRecord } from '../../db_query.ts';
import { accountBalance, fieldOr, isOneOf, parseBalance } from '../../record-values.ts';
import { daysSince, deterministicId, getTodayStr, parseUsDate } from '../../utils.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { LIVE_STATUSES, accountNotFound } from './records.ts';
import { inTable } from '../python-values.ts';

const ACCOUNT_TYPES = ['checking', 'savings', 'business_checking', 'business_savings'];
const PERSONAL_CHECKING = ['checking', 'personal_checking'];

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

interface EarlyClosure {
  readonly fee: number;
  readonly windowDays: number;
}

const tier = (fee: number, windowDays: number): EarlyClosure => ({ fee, windowDays });

/** Early-closure fees by account level, for accounts whose `class` is "checking" or "savings". */
const EARLY_CLOSURE: Readonly<Record<string, ReadonlyMap<string, EarlyClosure>>> = {
  checking: new Map([
    ['Light Blue Account', tier(15, 30)],
    ['Light Green Account', tier(15, 30)],
    ['Green Fee-Free Account', tier(15, 30)],
    ['Blue Account', tier(25, 60)],
    ['Green Account', tier(25, 60)],
    ['Evergreen Account', tier(50, 90)],
    ['Bluest Account', tier(100, 180)],
  ]),
  // The released DB writes savings accounts' class as "saving", which this table (keyed "savings") never matches.
  savings: new Map([
    ['Bronze Account', tier(20, 60)],
    ['Silver Account', tier(35, 90)],
    ['Silver Plus Account', tier(35, 90)],
    ['Gold Account', tier(75, 180)],
    ['Gold Plus Account', tier(75, 180)],
    ['Gold Years Account', tier(75, 180)],
    ['Platinum Account', tier(150, 270)],
    ['Platinum Plus Account', tier(150, 270)],
    ['Diamond Elite Account', tier(150, 270)],
  ]),
};

/** The early-closure fee the account owes now (0 outside its window), or null when its balance cannot pay it. */
const earlyClosureFee = (account: DbRecord, balance: number): number | null => {
  const accountClass = fieldOr(account, 'class', '');
  const level = fieldOr(account, 'level', '');
  const opened = fieldOr(account, 'date_opened', '');
  const rule =
    (accountClass === 'checking' || accountClass === 'savings') && typeof level === 'string'
      ? EARLY_CLOSURE[accountClass]!.get(level)
      : undefined;
  if (!rule || !truthy(opened)) return 0;
  const date = parseUsDate(opened);
  if (date === null || daysSince(date) >= rule.windowDays) return 0;
  return balance < rule.fee ? null : rule.fee;
};

const listing = (db: TransactionalDB, table: 'accounts' | 'credit_card_accounts', userId: PyValue): string | null => {
  // The constraint text is built by interpolation, so a user id holding a quote makes it invalid JSON.
  const result = queryDatabaseTool(db, table, `{"user_id": "${pyStr(userId)}"}`);
  return result.includes('No records found') || result.includes('No results found') ? null : result;
};

export const accountTools = defineDiscoverableTools<TransactionalDB>({
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
  close_bank_account_7392: {
    type: 'write',
    doc: `Close a customer's bank account (checking or savings).

Args:
    account_id (string): The ID of the bank account to close
    reason (string, optional): The reason for closing the account
    waive_early_closure_fee (boolean, optional): Whether to waive early closure fees

Returns:
    Bank account closed successfully.`,
    params: signature(['account_id'], { reason: 'Customer requested closure', waive_early_closure_fee: false }),
    run: (db, a) => {
      if (!truthy(a.account_id)) return 'Error: Missing required parameter (account_id).';
      if (!inTable(db, 'accounts', a.account_id)) return accountNotFound(a.account_id);
      const accountId = a.account_id;
      const account = getRecord(db, 'accounts', accountId)!;
      if (field(account, 'status') === 'CLOSED') return `Error: Account '${accountId}' is already closed.`;
      const balance = accountBalance(account);
      const fee = truthy(a.waive_early_closure_fee) ? 0 : earlyClosureFee(account, balance.value);
      if (fee === null) return 'Error: Account unable to be closed.';
      if (balance.value - fee !== 0) {
        return `Error: Account balance must be $0.00 before closing. Current balance: $${pyFormatFixed(balance, 2)}`;
      }
      const today = getTodayStr();
      const closed = updateRecordInDb(db, 'accounts', accountId, [
        ['status', 'CLOSED'],
        ['date_closed', today],
        ['closure_reason', a.reason!],
        ['early_closure_fee_waived', a.waive_early_closure_fee!],
      ])!;
      return [
        'Bank account closed successfully!',
        `  - Account ID: ${accountId}`,
        `  - Account Type: ${pyStr(fieldOr(closed, 'account_type', 'N/A'))}`,
        `  - Account Class: ${pyStr(fieldOr(closed, 'account_class', 'N/A'))}`,
        '  - Status: CLOSED',
        `  - Date Closed: ${today}`,
        `  - Reason: ${pyStr(a.reason)}`,
        `  - Early Closure Fee Waived: ${truthy(a.waive_early_closure_fee) ? 'Yes' : 'No'}`,
      ].join('\n');
    },
  },
  get_all_user_accounts_by_user_id_3847: {
    type: 'read',
    doc: `Retrieve all accounts (checking, savings, credit cards) for a customer.

Args:
    user_id (string): The customer's unique identifier in the system

Returns:
    User accounts retrieved successfully.`,
    params: signature(['user_id']),
    run: (db, a) => {
      if (!truthy(a.user_id)) return 'Error: Missing required parameter: user_id';
      const accounts = listing(db, 'accounts', a.user_id!);
      const cards = listing(db, 'credit_card_accounts', a.user_id!);
      return [
        'User accounts retrieved successfully.',
        '',
        'Executed: get_all_user_accounts_by_user_id_3847',
        `Accounts for user ${pyStr(a.user_id)}:`,
        '',
        'Bank Accounts:',
        accounts ?? '  No bank accounts found.',
        '\nCredit Card Accounts:',
        cards ?? '  No credit card accounts found.',
      ].join('\n');
    },
  },
});
