// The banking_knowledge user toolkit: the customer's own discoverable tools (callable by name, never listed),
// then the listed tools in the reference's order (reference: KnowledgeUserTools in
// src/tau2/domains/banking_knowledge/tools.py). It works on the same DB as the agent's toolkit.
import { PyError, PyFloat, isPyDict, isPyError, pyFormatFixed, pyRepr, pyStr, pyToFloat, pyTypeName, toNumber } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { dictHas, pyDictGet } from '../../src/core/environment/python-dict.ts';
import { defineToolkit } from '../../src/core/environment/toolkit.ts';
import type { Toolkit } from '../../src/core/environment/toolkit.ts';
import type { KnowledgeDb } from './data_model.ts';
import { addToDb, queryDatabaseTool } from './db_query.ts';
import { isOneOf } from './record-values.ts';
import { asToolSpec } from './discoverable/declare.ts';
import { holds, members } from './discoverable/arguments.ts';
import { invokeDiscoverable, parseToolArguments } from './discoverable/call.ts';
import { userDiscoverableTools } from './discoverable/user.ts';
import { raisingToolErrors } from './tool-errors.ts';
import { KNOWLEDGE_USER_TOOL_SCHEMAS as S } from './tool_schemas.ts';
import { generateApplicationId, generateReferralId, generateTransactionId, getTodayStr } from './utils.ts';

const CLASS_NAME = 'KnowledgeUserTools';

export const VALID_CREDIT_CARD_TYPES = [
  'Bronze Rewards Card',
  'Business Bronze Rewards Card',
  'Business Gold Rewards Card',
  'Business Platinum Rewards Card',
  'Business Silver Rewards Card',
  'Crypto-Cash Back',
  'Diamond Elite Card',
  'EcoCard',
  'Gold Rewards Card',
  'Green Rewards Card',
  'Platinum Rewards Card',
  'Silver Rewards Card',
  'Silver Zoom Card',
];

/** Reward percentage by card type and category (`default` for the other categories). */
export const CREDIT_CARD_REWARDS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'Bronze Rewards Card': { default: 1.0 },
  'Silver Rewards Card': { Travel: 4.0, Software: 4.0, default: 1.0 },
  'Gold Rewards Card': { default: 2.5 },
  'Platinum Rewards Card': { default: 10.0 },
  'Business Bronze Rewards Card': { default: 1.0 },
  'Business Silver Rewards Card': { Travel: 10.0, Software: 10.0, default: 1.0 },
  'Green Rewards Card': { Sustainable: 3.0, default: 1.0 },
  'Business Gold Rewards Card': { Operations: 2.5, default: 1.0 },
  'Business Platinum Rewards Card': { Travel: 4.0, Software: 4.0, Media: 4.0, default: 1.5 },
  'Silver Zoom Card': { Transportation: 3.0, default: 1.0 },
  'Diamond Elite Card': { default: 5.0 },
  EcoCard: { Green: 5.0, default: 1.0 },
  'Crypto-Cash Back': { default: 2.0 },
};

/** `int(x)` of a float: truncation, with Python's errors for inf and nan. */
const truncate = (x: number): number => {
  if (Number.isNaN(x)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
  return Math.trunc(x) === 0 ? 0 : Math.trunc(x);
};

/** Non-overlapping occurrences of `part` in `text` (`str.count`). */
const occurrences = (text: string, part: string): number => text.split(part).length - 1;

/** `call_discoverable_user_tool`'s signature check: the first missing or unexpected parameter, else null. */
const signatureProblem = (params: readonly { name: string; hasDefault: boolean }[], args: PyValue): string | null => {
  for (const p of params) if (!p.hasDefault && !holds(args, p.name)) return `Error: Missing required parameter: ${p.name}`;
  const names = new Set(params.map((p) => p.name));
  for (const name of members(args)) {
    if (Array.isArray(name) || isPyDict(name)) throw new PyError('TypeError', `unhashable type: '${pyTypeName(name)}'`);
    if (typeof name !== 'string' || !names.has(name)) return `Error: Unexpected parameter: ${pyStr(name)}`;
  }
  return null;
};

export const knowledgeUserTools: Toolkit<KnowledgeDb> = defineToolkit<KnowledgeDb>({
  className: CLASS_NAME,
  functions: {},
  tools: raisingToolErrors({
    ...Object.fromEntries(Object.entries(userDiscoverableTools).map(([name, tool]) => [name, asToolSpec(tool)])),
    apply_for_credit_card: {
      type: 'write',
      ...S.apply_for_credit_card,
      run: (db, { card_type: cardType, customer_name: customerName, annual_income: income, rho_bank_subscription: rho }) => {
        if (!isOneOf(cardType, VALID_CREDIT_CARD_TYPES)) {
          return `Error: Invalid card_type '${pyStr(cardType)}'. Must be one of: ${pyRepr(VALID_CREDIT_CARD_TYPES)}`;
        }
        let annualIncome: PyFloat;
        try {
          annualIncome = pyToFloat(income);
        } catch (error) {
          if (isPyError(error, 'TypeError') || isPyError(error, 'ValueError')) return 'Error: Invalid annual_income. Must be a number.';
          throw error;
        }
        const applicationId = generateApplicationId(cardType!, customerName!, annualIncome, rho!);
        const added = addToDb(db, 'credit_card_applications', applicationId, {
          application_id: applicationId,
          card_type: cardType!,
          customer_name: customerName!,
          annual_income: annualIncome,
          rho_bank_subscription: rho!,
          status: 'PENDING',
          date: getTodayStr(),
        });
        if (!added) return `Failed to submit application: Record ID '${applicationId}' may already exist.`;
        return (
          'Credit card application submitted:\nYour application has been successfully submitted. ' +
          'You will receive a decision within 5-7 business days via email.'
        );
      },
    },
    submit_referral: {
      type: 'write',
      ...S.submit_referral,
      run: (db, { user_id: userId, account_type: accountType }) => {
        const referralId = generateReferralId(userId!, accountType!);
        const today = getTodayStr();
        const added = addToDb(db, 'referrals', referralId, {
          referral_id: referralId,
          referrer_id: userId!,
          referred_account_type: accountType!,
          referral_status: 'NO_PROGRESS',
          date: today,
        });
        if (!added) return `Failed to submit referral: Record ID '${referralId}' may already exist.`;
        return [
          'Referral request submitted successfully!',
          `  - Referral ID: ${referralId}`,
          `  - Referrer ID: ${pyStr(userId)}`,
          `  - Account Type: ${pyStr(accountType)}`,
          '  - Status: NO_PROGRESS',
          `  - Date: ${today}`,
          '',
          "Share your referral ID with the person you're referring. They will need to use this when applying for their account.",
        ].join('\n');
      },
    },
    call_discoverable_user_tool: {
      type: 'write',
      ...S.call_discoverable_user_tool,
      run: (db, { discoverable_tool_name: name, arguments: text }) => {
        if (!dictHas(userDiscoverableTools, name)) return `Error: Unknown discoverable tool '${pyStr(name)}'.`;
        const tool = userDiscoverableTools[name]!;
        const parsed = parseToolArguments(text);
        if ('error' in parsed) return parsed.error;
        const problem = signatureProblem(tool.params, parsed.args);
        if (problem) return problem;
        const outcome = invokeDiscoverable(CLASS_NAME, name, tool, db, parsed.args);
        return 'typeError' in outcome ? `Error: Invalid arguments for tool '${name}': ${outcome.typeError}` : outcome.result;
      },
    },
    list_discoverable_user_tools: {
      type: 'read',
      ...S.list_discoverable_user_tools,
      run: (db) => `Tools given to you by the agent:\n${queryDatabaseTool(db, 'user_discoverable_tools', '{}')}`,
    },
    request_human_agent_transfer: {
      type: 'write',
      ...S.request_human_agent_transfer,
      run: (db) => {
        const existing = queryDatabaseTool(db, 'human_transfer_requests', '{}');
        const count =
          existing.includes('No records found') || existing.includes('No results found')
            ? 1
            : occurrences(existing, 'request_id') + 1;
        const requestId = `transfer_request_${count}`;
        addToDb(db, 'human_transfer_requests', requestId, {
          request_id: requestId,
          request_number: count,
          requested_at: getTodayStr(),
          status: 'PENDING',
        });
        return `Transfer request #${count} submitted.\nThe agent will process your request.`;
      },
    },
    submit_transaction: {
      type: 'write',
      ...S.submit_transaction,
      run: (db, { user_id: userId, credit_card_type: cardType, merchant_name: merchant, amount, category }) => {
        const rewards = pyDictGet(CREDIT_CARD_REWARDS, cardType);
        if (!rewards) {
          return `Error: Unknown credit card type '${pyStr(cardType)}'. Available types: ${pyRepr(Object.keys(CREDIT_CARD_REWARDS))}`;
        }
        const transactionId = generateTransactionId(userId!, cardType!, merchant!, amount!, category!);
        const today = getTodayStr();
        const rate = pyDictGet(rewards, category) ?? rewards.default!;
        // `amount` is a number here: the id's `f"{amount:.2f}"` has already refused anything else.
        const points = truncate(toNumber(amount as PyFloat | number | boolean) * rate);
        const added = addToDb(db, 'credit_card_transaction_history', transactionId, {
          transaction_id: transactionId,
          user_id: userId!,
          credit_card_type: cardType!,
          merchant_name: merchant!,
          transaction_amount: `$${pyFormatFixed(amount, 2)}`,
          transaction_date: today,
          category: category!,
          status: 'COMPLETED',
          rewards_earned: `${points} points`,
        });
        if (!added) return `Failed to submit transaction: Record ID '${transactionId}' may already exist.`;
        return [
          'Transaction submitted successfully!',
          `  - Transaction ID: ${transactionId}`,
          `  - User ID: ${pyStr(userId)}`,
          `  - Card Type: ${pyStr(cardType)}`,
          `  - Merchant: ${pyStr(merchant)}`,
          `  - Amount: $${pyFormatFixed(amount, 2)}`,
          `  - Category: ${pyStr(category)}`,
          `  - Date: ${today}`,
          `  - Rewards Earned: ${points} points (${pyStr(new PyFloat(rate))}% cashback rate)`,
          '',
        ].join('\n');
      },
    },
  }),
});
