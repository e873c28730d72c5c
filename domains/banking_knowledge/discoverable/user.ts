// The user's discoverable tools: actions the customer takes themselves once the agent has given them the tool
// (reference: `@is_discoverable_tool` methods of KnowledgeUserTools in src/tau2/domains/banking_knowledge/tools.py).
import {
  PyError,
  PyFloat,
  dumpsPy,
  isPyDict,
  isPyError,
  pyFormatFixed,
  pyStr,
  pyToFloat,
  pyTypeName,
  sha256Hex,
} from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { truthy } from '../../../src/core/environment/python-args.ts';
import type { TransactionalDB } from '../data_model.ts';
import { addToDb, getRecord, isRecordId, queryDatabaseTool, updateRecordInDb } from '../db_query.ts';
import { accountBalance, fieldOr, isOneOf } from '../record-values.ts';
import {
  generateDisputeId,
  generateReferralLinkId,
  generateUserDiscoverableToolCallId,
  getTodayStr,
} from '../utils.ts';
import { defineDiscoverableTools, signature } from './declare.ts';
import type { DiscoverableTools } from './declare.ts';

/** `_check_tool_given`: the refusal when the agent has not given this tool, else null. */
const notGiven = (db: TransactionalDB, toolName: string): string | null =>
  queryDatabaseTool(db, 'user_discoverable_tools', `{"tool_name": "${toolName}"}`).includes('No records found')
    ? `Error: Tool '${toolName}' has not been given to you by the agent. ` +
      'The agent must first use `give_discoverable_user_tool` to give this tool to you.'
    : null;

/** `_log_user_tool_call`: one record per distinct tool and arguments. */
const logCall = (db: TransactionalDB, toolName: string, args: Record<string, PyValue>): void => {
  addToDb(db, 'user_discoverable_tool_calls', generateUserDiscoverableToolCallId(toolName, args), {
    tool_name: toolName,
    arguments: args,
    called_at: getTodayStr(),
    status: 'CALLED',
  });
};

const executed = (toolName: string, args: Record<string, PyValue>): string =>
  `Executed: ${toolName}\nArguments: ${dumpsPy(args, { indent: 2 })}\n`;

/** The 4 digits of a card: the first decimal digits of a SHA-256 of its id, padded with zeros. */
const lastFourDigits = (accountId: PyValue): string =>
  [...sha256Hex(`card_last4:${pyStr(accountId)}`)].filter((c) => c >= '0' && c <= '9').slice(0, 4).join('').padEnd(4, '0');

/** `float(check_amount)`, or null where Python's ValueError / TypeError is caught. */
const floatOrNull = (value: PyValue): PyFloat | null => {
  try {
    return pyToFloat(value);
  } catch (error) {
    if (isPyError(error, 'ValueError') || isPyError(error, 'TypeError')) return null;
    throw error;
  }
};

const tools = defineDiscoverableTools<TransactionalDB>({
  submit_cash_back_dispute_0589: {
    type: 'write',
    doc: `Submit a cash back dispute for a specific transaction.

Args:
    user_id (string): The user's unique identifier in the system
    transaction_id (string): The unique identifier for the transaction with incorrect cash back

Returns:
    Cash back dispute submitted successfully. Your case has been queued for review.`,
    params: signature(['user_id', 'transaction_id']),
    run: (db, { user_id: userId, transaction_id: transactionId }) => {
      const args = { user_id: userId!, transaction_id: transactionId! };
      const disputeId = generateDisputeId(userId!, transactionId!);
      let autoResolve: PyValue = false;
      if (truthy(db.task_config.data)) {
        const settings = fieldOr(db.task_config.data, 'dispute_settings', {});
        if (!isPyDict(settings)) throw new PyError('AttributeError', `'${pyTypeName(settings)}' object has no attribute 'get'`);
        autoResolve = fieldOr(settings, 'auto_resolve_disputes', false);
      }
      const base = { dispute_id: disputeId, user_id: userId!, transaction_id: transactionId!, submitted_at: getTodayStr() };
      const [record, status] = truthy(autoResolve)
        ? [
            { ...base, status: 'RESOLVED', resolution: 'APPROVED' },
            'Status: RESOLVED - The dispute has been reviewed and approved. The transaction rewards need to be updated.',
          ]
        : [{ ...base, status: 'SUBMITTED' }, 'Status: SUBMITTED - Your dispute has been queued for review.'];
      const added = addToDb(db, 'cash_back_disputes', disputeId, record);
      const head = `Cash back dispute submitted successfully. Your case has been queued for review.\n\n${executed('submit_cash_back_dispute_0589', args)}`;
      return added
        ? `${head}Dispute ID: ${disputeId}\n${status}`
        : `${head}Note: Dispute may have already been submitted for this transaction.`;
    },
  },
  get_referral_link: {
    type: 'write',
    doc: `Generate a referral link for a specific credit card to share with friends or family.

Args:
    user_id (string): The user's unique identifier in the system (the referrer)
    card_name (string): The name of the credit card to create a referral for (e.g., 'Gold Rewards Card')

Returns:
    Referral link generated successfully. Share this link with the person you want to refer.`,
    params: signature(['user_id', 'card_name']),
    run: (db, { user_id: userId, card_name: cardName }) => {
      const args = { user_id: userId!, card_name: cardName! };
      const referralId = generateReferralLinkId(userId!, cardName!);
      const added = addToDb(db, 'referrals', referralId, {
        referral_id: referralId,
        referrer_id: userId!,
        referred_account_type: cardName!,
        referral_status: 'NO_PROGRESS',
        date: getTodayStr(),
      });
      const head = `Referral link generated successfully. Share this link with the person you want to refer.\n\n${executed('get_referral_link', args)}`;
      return added
        ? `${head}Referral ID: ${referralId}\nReferral link: https://rhobank.com/refer/${referralId}`
        : `${head}Note: A referral link for this card may have already been generated.`;
    },
  },
  get_card_last_4_digits: {
    type: 'read',
    doc: `Look up the last 4 digits of a credit card number.

Args:
    credit_card_account_id (string): The credit card account ID to look up (e.g., 'cc_76ad9cc60e_gold')

Returns:
    Card information retrieved successfully.`,
    params: signature(['credit_card_account_id']),
    run: (db, { credit_card_account_id: accountId }) => {
      const args = { credit_card_account_id: accountId! };
      const found = queryDatabaseTool(db, 'credit_card_accounts', `{"account_id": "${pyStr(accountId)}"}`);
      if (found.includes('No results found') || found.includes('No records found')) {
        return `Error: Credit card account '${pyStr(accountId)}' not found.`;
      }
      return `Card information retrieved successfully.\n\n${executed('get_card_last_4_digits', args)}Last 4 digits of card: ${lastFourDigits(accountId!)}`;
    },
  },
  deposit_check_3847: {
    type: 'write',
    doc: `Deposit a check into a checking or savings account. The user takes a photo of the check and submits it through their mobile banking app.

Args:
    account_id (string): The bank account ID to deposit the check into
    check_amount (number): The amount of the check in USD

Returns:
    Check deposited successfully. Funds will be available according to your account's deposit policy.`,
    params: signature(['account_id', 'check_amount']),
    run: (db, { account_id: accountId, check_amount: rawAmount }) => {
      const args = { account_id: accountId!, check_amount: rawAmount! };
      const amount = floatOrNull(rawAmount!);
      if (amount === null) return `Error: Invalid check amount '${pyStr(rawAmount)}'. Must be a number.`;
      if (amount.value <= 0) return 'Error: Check amount must be positive.';
      if (!isRecordId(db, 'accounts', accountId)) return `Error: Account '${pyStr(accountId)}' not found.`;
      const account = getRecord(db, 'accounts', accountId)!;
      if (!isOneOf(fieldOr(account, 'status', null), ['ACTIVE', 'OPEN'])) return `Error: Account '${pyStr(accountId)}' is not active.`;
      const previous = accountBalance(account);
      const balance = new PyFloat(previous.value + amount.value);
      updateRecordInDb(db, 'accounts', accountId, [['current_holdings', `$${pyFormatFixed(balance, 2)}`]]);
      return [
        "Check deposited successfully. Funds will be available according to your account's deposit policy.",
        '',
        `${executed('deposit_check_3847', args)}Check deposit processed!`,
        `  - Account: ${pyStr(accountId)}`,
        `  - Check Amount: $${pyFormatFixed(amount, 2)}`,
        `  - Previous Balance: $${pyFormatFixed(previous, 2)}`,
        `  - New Balance: $${pyFormatFixed(balance, 2)}`,
      ].join('\n');
    },
  },
});

/** Each user tool runs only once the agent has given it, and every call of it is logged first. */
export const userDiscoverableTools: DiscoverableTools<TransactionalDB> = Object.fromEntries(
  Object.entries(tools).map(([name, tool]) => [
    name,
    {
      ...tool,
      run: (db: TransactionalDB, args: Readonly<Record<string, PyValue>>) => {
        const refusal = notGiven(db, name);
        if (refusal) return refusal;
        logCall(db, name, Object.fromEntries(tool.params.map((p) => [p.name, args[p.name]!])));
        return tool.run(db, args);
      },
    },
  ]),
);
