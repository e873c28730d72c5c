// The banking_knowledge domain's fixed clock and deterministic record ids (reference:
// src/tau2/domains/banking_knowledge/utils.py). Every id is a prefix of a SHA-256 of a seed string, so the
// seeds, including Python's number formatting inside them, are reproduced byte for byte.
import { PyError, dumpsPy, pyFormatFixed, pyStr, pyTypeName, sha256Hex } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';

/** `get_today_str()`: the locked date as MM/DD/YYYY. */
export const KNOWLEDGE_TODAY = '11/14/2025';
/** `get_now()`: every scenario takes place at 2025-11-14 03:40:00 (EST, kept without a zone). */
const NOW = { year: 2025, month: 11, day: 14, hour: 3, minute: 40 };

export const getTodayStr = (): string => KNOWLEDGE_TODAY;

/**
 * `(get_now() - datetime.strptime(date, "%m/%d/%Y")).days` for a date at midnight: whole days, floored, as
 * Python's timedelta counts them (now is 03:40, so the same date gives 0 and a later date a negative count).
 */
export const daysSince = (date: { year: number; month: number; day: number }): number => {
  const nowMs = Date.UTC(NOW.year, NOW.month - 1, NOW.day, NOW.hour, NOW.minute);
  const thenMs = Date.UTC(date.year, date.month - 1, date.day);
  return Math.floor((nowMs - thenMs) / 86_400_000);
};

/** `_deterministic_id`: the first `length` hex characters of the SHA-256 of the seed. */
export const deterministicId = (seed: string, length = 16): string => sha256Hex(seed).slice(0, 2 * Math.floor(length / 2));

/** `f"{amount:.2f}"`, with Python's errors for a value that is not a number. */
const twoDecimals = (amount: PyValue): string => pyFormatFixed(amount, 2);

/** `":".join(parts)`: every part must be a str, else Python's TypeError. */
const joinSeed = (parts: readonly PyValue[]): string =>
  parts
    .map((part, i) => {
      if (typeof part !== 'string') {
        throw new PyError('TypeError', `sequence item ${i}: expected str instance, ${pyTypeName(part)} found`);
      }
      return part;
    })
    .join(':');

export const generateTransactionId = (
  userId: PyValue,
  creditCardType: PyValue,
  merchantName: PyValue,
  amount: PyValue,
  category: PyValue,
  date?: string | null,
): string => {
  const parts = ['transaction', userId, creditCardType, merchantName, twoDecimals(amount), category];
  if (date) parts.push(date);
  return `txn_${deterministicId(joinSeed(parts), 12)}`;
};

export const generateReferralId = (referrerId: PyValue, referredAccountType: PyValue, date?: string | null): string => {
  const parts = ['referral', referrerId, referredAccountType];
  if (date) parts.push(date);
  return deterministicId(joinSeed(parts), 16);
};

/** The seed holds `str()` of each value, so `100000.0` and `True` appear as Python prints them. */
export const generateApplicationId = (
  cardType: PyValue,
  customerName: PyValue,
  annualIncome: PyValue,
  rhoBankSubscription: PyValue = false,
): string =>
  deterministicId(
    `credit_card:${pyStr(cardType)}:${pyStr(customerName)}:${pyStr(annualIncome)}:${pyStr(rhoBankSubscription)}`,
    16,
  );

export const generateVerificationId = (userId: PyValue, timeVerified: string): string =>
  `${pyStr(userId)}_${timeVerified.replaceAll(' ', '_').replaceAll(':', '').replaceAll('-', '')}`;

export const generateUserDiscoverableToolId = (toolName: string): string =>
  deterministicId(`user_discoverable_tool:${toolName}`, 16);

/** `json.dumps(arguments, sort_keys=True)` is part of the seed. */
export const generateUserDiscoverableToolCallId = (toolName: string, args: PyValue): string =>
  deterministicId(`user_discoverable_tool_call:${toolName}:${dumpsPy(args, { sortKeys: true })}`, 16);

export const generateDisputeId = (userId: PyValue, transactionId: PyValue): string =>
  `dsp_${deterministicId(`dispute:${pyStr(userId)}:${pyStr(transactionId)}`, 12)}`;

export const generateReferralLinkId = (userId: PyValue, cardName: PyValue): string =>
  deterministicId(`referral_link:${pyStr(userId)}:${pyStr(cardName)}`, 16);

export const generateAgentDiscoverableToolId = (toolName: string): string =>
  deterministicId(`agent_discoverable_tool:${toolName}`, 16);

export const generateCreditCardOrderId = (creditCardAccountId: PyValue, userId: PyValue, reason: PyValue): string =>
  `ccord_${deterministicId(`credit_card_order:${pyStr(creditCardAccountId)}:${pyStr(userId)}:${pyStr(reason)}`, 12)}`;

export const generateClosureReasonId = (creditCardAccountId: PyValue, userId: PyValue): string =>
  `clsr_${deterministicId(`closure_reason:${pyStr(creditCardAccountId)}:${pyStr(userId)}`, 12)}`;

export const generateAccountFlagId = (creditCardAccountId: PyValue, flagType: PyValue, expirationDate: PyValue): string =>
  `ccflag_${deterministicId(`account_flag:${pyStr(creditCardAccountId)}:${pyStr(flagType)}:${pyStr(expirationDate)}`, 12)}`;

export const generateCreditLimitIncreaseRequestId = (
  creditCardAccountId: PyValue,
  userId: PyValue,
  requestedIncreaseAmount: PyValue,
): string =>
  `cli_${deterministicId(`cli_request:${pyStr(creditCardAccountId)}:${pyStr(userId)}:${twoDecimals(requestedIncreaseAmount)}`, 12)}`;

export const generateBankAccountTransactionId = (
  accountId: PyValue,
  date: PyValue,
  description: PyValue,
  amount: PyValue,
  transactionType: PyValue,
): string =>
  `btxn_${deterministicId(
    `bank_txn:${pyStr(accountId)}:${pyStr(date)}:${pyStr(description)}:${twoDecimals(amount)}:${pyStr(transactionType)}`,
    12,
  )}`;

export const generateDebitCardOrderId = (accountId: PyValue, userId: PyValue, deliveryOption: PyValue): string =>
  `dcord_${deterministicId(`debit_card_order:${pyStr(accountId)}:${pyStr(userId)}:${pyStr(deliveryOption)}`, 12)}`;

export const generateDebitCardId = (accountId: PyValue, userId: PyValue, issueDate: PyValue): string =>
  `dbc_${deterministicId(`debit_card:${pyStr(accountId)}:${pyStr(userId)}:${pyStr(issueDate)}`, 12)}`;

const US_DATE = /^(1[0-2]|0[1-9]|[1-9])\/(3[01]|[12]\d|0[1-9]|[1-9]| [1-9])\/(\d\d\d\d)$/;

/**
 * `datetime.strptime(value, "%m/%d/%Y")`: the date, or null where Python raises ValueError (no match, or no
 * such day). A value that is not a str raises Python's TypeError, which no tool catches.
 */
export const parseUsDate = (value: PyValue | undefined): { year: number; month: number; day: number } | null => {
  if (typeof value !== 'string') {
    throw new PyError('TypeError', `strptime() argument 1 must be str, not ${pyTypeName(value)}`);
  }
  const match = US_DATE.exec(value);
  if (!match) return null;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1) return null;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const limit = month === 2 ? (leap ? 29 : 28) : daysInMonth;
  return day <= limit ? { year, month, day } : null;
};
