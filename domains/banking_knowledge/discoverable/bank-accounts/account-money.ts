// Moving money on bank accounts: transfers, checking and savings credits, interest discrepancy reports
// (reference: transfer_funds_between_bank_accounts_7291, apply_checking_account_credit_5829,
// apply_savings_account_credit_6831 and submit_interest_discrepancy_report_7294 of KnowledgeTools).
import { PyFloat, pyFormatFixed, pyRepr, pyRound, pyStr, pyEquals } from '../../../../src/core/py/index.ts';
import { truthy } from '../../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../../data_model.ts';
import { field, getRecord, updateRecordInDb } from '../../db_query.ts';
import { accountBalance, fieldOr, isOneOf } from '../../record-values.ts';
import { deterministicId, getTodayStr } from '../../utils.ts';
import type { DiscoverableTool } from '../declare.ts';
import { defineDiscoverableTools, signature } from '../declare.ts';
import { asStr, floatOrNull } from './python.ts';
import { inTable } from '../python-values.ts';
import { LIVE_STATUSES, accountNotFound, putRecord } from './records.ts';

const money = (value: number): string => `$${pyFormatFixed(new PyFloat(value), 2)}`;

/** What tells the checking credit from the savings credit. */
interface CreditKind {
  readonly doc: string;
  /** The credit types it accepts, each with the description its transaction gets. */
  readonly descriptions: Readonly<Record<string, string>>;
  /** The account `class` values (lower-cased) it applies to, and the refusal for any other. */
  readonly classes: readonly string[];
  readonly wrongClass: string;
  /** The transaction id's seed prefix and the balance text's prefix ("$" or none). */
  readonly seedPrefix: string;
  readonly holdingsPrefix: string;
}

const accountCredit = (kind: CreditKind): DiscoverableTool<TransactionalDB> => ({
  type: 'write',
  doc: kind.doc,
  params: signature(['account_id', 'amount', 'credit_type']),
  run: (db, a) => {
    if (!truthy(a.account_id) || a.amount === null || !truthy(a.credit_type)) return 'Error: Missing required parameters.';
    const amount = floatOrNull(a.amount);
    if (amount === null) return 'Error: Invalid credit amount. Must be a number.';
    if (amount.value <= 0) return 'Error: Credit amount must be positive.';
    const validTypes = Object.keys(kind.descriptions);
    if (!isOneOf(a.credit_type, validTypes)) return `Error: Invalid credit_type. Must be one of: ${pyRepr(validTypes)}`;
    if (!inTable(db, 'accounts', a.account_id)) return accountNotFound(a.account_id);
    const accountId = a.account_id;
    const account = getRecord(db, 'accounts', accountId)!;
    if (!kind.classes.includes(asStr(fieldOr(account, 'class', ''), 'lower').toLowerCase())) {
      return `Error: Account '${accountId}' ${kind.wrongClass}`;
    }
    if (!isOneOf(field(account, 'status'), LIVE_STATUSES)) return `Error: Account '${accountId}' is not active.`;
    const creditType = a.credit_type as string;
    const current = accountBalance(account).value;
    const next = current + amount.value;
    updateRecordInDb(db, 'accounts', accountId, [['current_holdings', `${kind.holdingsPrefix}${pyFormatFixed(new PyFloat(next), 2)}`]]);
    const today = getTodayStr();
    const transactionId = `txn_${deterministicId(`${kind.seedPrefix}:${accountId}:${creditType}:${pyStr(amount)}:${today}`)}`;
    putRecord(db, 'bank_account_transaction_history', transactionId, {
      transaction_id: transactionId,
      account_id: accountId,
      date: today,
      description: kind.descriptions[creditType]!,
      amount,
      type: creditType,
      status: 'posted',
    });
    return [
      '\nCredit applied successfully!',
      `  - Transaction ID: ${transactionId}`,
      `  - Account: ${accountId}`,
      `  - Credit Type: ${creditType}`,
      `  - Amount: ${money(amount.value)}`,
      `  - Previous Balance: ${money(current)}`,
      `  - New Balance: ${money(next)}`,
    ].join('\n');
  },
});

export const accountMoneyTools = defineDiscoverableTools<TransactionalDB>({
  transfer_funds_between_bank_accounts_7291: {
    type: 'write',
    doc: `Transfer funds from one bank account to another.

Args:
    source_account_id (string): The account ID to transfer funds from
    destination_account_id (string): The account ID to transfer funds to
    amount (number): The amount to transfer in USD

Returns:
    Funds transferred successfully.`,
    params: signature(['source_account_id', 'destination_account_id', 'amount']),
    run: (db, a) => {
      const { source_account_id: from, destination_account_id: to } = a;
      if (!truthy(from) || !truthy(to) || a.amount === null) {
        return 'Error: Missing required parameters (source_account_id, destination_account_id, amount).';
      }
      const amount = floatOrNull(a.amount);
      if (amount === null) return `Error: Invalid amount '${pyStr(a.amount)}'. Must be a number.`;
      if (amount.value <= 0) return 'Error: Transfer amount must be positive.';
      if (pyEquals(from, to)) return 'Error: Source and destination accounts cannot be the same.';
      if (!inTable(db, 'accounts', from)) return `Error: Source account '${pyStr(from)}' not found.`;
      if (!inTable(db, 'accounts', to)) return `Error: Destination account '${pyStr(to)}' not found.`;
      const source = getRecord(db, 'accounts', from)!;
      if (!isOneOf(field(source, 'status'), LIVE_STATUSES)) return `Error: Source account '${from}' is not active.`;
      const destination = getRecord(db, 'accounts', to)!;
      if (!isOneOf(field(destination, 'status'), LIVE_STATUSES)) return `Error: Destination account '${to}' is not active.`;
      const sourceBalance = accountBalance(source).value;
      if (sourceBalance < amount.value) {
        return `Error: Insufficient funds. Source account balance is ${money(sourceBalance)}, but transfer amount is ${money(amount.value)}.`;
      }
      const newSource = sourceBalance - amount.value;
      const newDestination = accountBalance(destination).value + amount.value;
      updateRecordInDb(db, 'accounts', from, [['current_holdings', money(newSource)]]);
      updateRecordInDb(db, 'accounts', to, [['current_holdings', money(newDestination)]]);
      return [
        'Transfer completed successfully!',
        `  - Amount: ${money(amount.value)}`,
        `  - From: ${from} (new balance: ${money(newSource)})`,
        `  - To: ${to} (new balance: ${money(newDestination)})`,
      ].join('\n');
    },
  },
  apply_checking_account_credit_5829: accountCredit({
    doc: `Apply a credit to a customer's checking account.

Args:
    account_id (string): The checking account ID to credit
    amount (number): The positive dollar amount to credit (must be greater than 0)
    credit_type (string): The type of credit: 'rebate_credit' for missing rebates, 'fee_refund' for incorrect fee charges

Returns:
    Credit applied to checking account successfully.`,
    descriptions: { rebate_credit: 'REBATE CREDIT - CUSTOMER SERVICE', fee_refund: 'FEE REFUND - CUSTOMER SERVICE' },
    classes: ['checking'],
    wrongClass: 'is not a checking account. Credits can only be applied to checking accounts.',
    seedPrefix: 'checking_credit',
    holdingsPrefix: '$',
  }),
  apply_savings_account_credit_6831: accountCredit({
    doc: `Apply a credit to a customer's savings account for interest corrections, fee refunds, or goodwill adjustments.

Args:
    account_id (string): The savings account ID to credit
    amount (number): The positive dollar amount to credit (must be greater than 0)
    credit_type (string): The type of credit: 'interest_correction' for APY/interest calculation errors, 'fee_refund' for incorrect fee charges, 'goodwill_credit' for customer service gestures

Returns:
    Credit applied to savings account successfully.`,
    descriptions: {
      interest_correction: 'INTEREST CORRECTION - CUSTOMER SERVICE',
      fee_refund: 'FEE REFUND - CUSTOMER SERVICE',
      goodwill_credit: 'GOODWILL CREDIT - CUSTOMER SERVICE',
    },
    classes: ['saving', 'savings'],
    wrongClass: 'is not a savings account. This tool only applies to savings accounts.',
    seedPrefix: 'savings_credit',
    holdingsPrefix: '',
  }),
  submit_interest_discrepancy_report_7294: {
    type: 'write',
    doc: `Submit a report for interest calculation discrepancies to the backend team for investigation. Use this when the interest credited to a customer's account does not match expected APY calculations.

Args:
    account_id (string): The savings account ID with the discrepancy
    user_id (string): The customer's unique identifier
    expected_apy (number): The APY percentage the customer should have received (e.g., 2.775 for 2.775%)
    actual_apy (number): The APY percentage that was actually applied (e.g., 2.5 for 2.5%)
    amount_difference (number): The dollar amount difference between expected and actual interest credited

Returns:
    Interest discrepancy report submitted successfully. Backend team will investigate.`,
    params: signature(['account_id', 'user_id', 'expected_apy', 'actual_apy', 'amount_difference']),
    run: (db, a) => {
      const numbers = [a.expected_apy, a.actual_apy, a.amount_difference];
      if (!truthy(a.account_id) || !truthy(a.user_id) || numbers.some((n) => n === null)) {
        return 'Error: Missing required parameters.';
      }
      const [expected, actual, difference] = numbers.map(floatOrNull);
      if (!expected || !actual || !difference) {
        return 'Error: expected_apy, actual_apy, and amount_difference must be numbers.';
      }
      const account = inTable(db, 'accounts', a.account_id) ? getRecord(db, 'accounts', a.account_id) : undefined;
      if (!account) return accountNotFound(a.account_id);
      const user = inTable(db, 'users', a.user_id) ? getRecord(db, 'users', a.user_id) : undefined;
      if (!user) return `Error: User '${pyStr(a.user_id)}' not found.`;
      // The report goes to add_to_db("interest_discrepancy_reports", …), a table TransactionalDB does not have:
      // the reference stores nothing, so only the id (derived as it is there) and the text remain.
      const reportId = `IDR_${deterministicId(
        `interest_report:${pyStr(a.account_id)}:${pyStr(a.user_id)}:${pyStr(expected)}:${pyStr(actual)}:${getTodayStr()}`,
      )}`;
      const level = pyStr(fieldOr(account, 'level', 'Unknown'));
      return [
        '\nInterest Discrepancy Report Submitted Successfully!',
        `  - Report ID: ${reportId}`,
        `  - Account: ${pyStr(a.account_id)} (${level})`,
        `  - Customer: ${pyStr(fieldOr(user, 'name', 'Unknown'))}`,
        `  - Expected APY: ${pyStr(expected)}%`,
        `  - Actual APY: ${pyStr(actual)}%`,
        `  - APY Difference: ${pyStr(pyRound(new PyFloat(expected.value - actual.value), 4))}%`,
        `  - Amount Difference: ${money(difference.value)}`,
        '  - Status: PENDING_REVIEW',
        '\nThe backend team will investigate this discrepancy and ensure correct APY calculations are applied going forward.',
      ].join('\n');
    },
  },
});
