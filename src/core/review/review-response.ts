// The reviewer model's answers read as the reference reads them (reference: _parse_review_response,
// _parse_user_only_review_response and _parse_classification_response): JSON from a code block or the outermost
// braces, severities kept only where they fit the error's source, flags derived from the errors. A failure
// throws the text the reference's exception shows (JSON decoding and model validation messages included).
import { constructModel } from '../environment/model.ts';
import { dictGet, dictHasKey, isPyDict, parsePyJson, pyFloat, pyTypeName } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import {
  AuthenticationClassificationSchema,
  ReviewErrorSchema,
  ReviewSchema,
  UserOnlyReviewErrorSchema,
  UserOnlyReviewSchema,
} from '../schemas/review.ts';
import type { AuthenticationClassification, Review, ReviewError, UserOnlyReview, UserOnlyReviewError } from '../schemas/review.ts';

/** extract_json_from_llm_response: a ``` block's body, else the first `{` to the last `}`, else the whole text. */
export const extractJson = (response: string): string => {
  const block = /```(?:json)?\s*([\s\S]*?)```/.exec(response);
  if (block) return block[1]!.trim();
  const start = response.indexOf('{');
  const end = response.lastIndexOf('}');
  return start !== -1 && end !== -1 && end > start ? response.slice(start, end + 1) : response;
};

/** `data.get(key, fallback)`, failing as Python does on a value that is not a dict. */
const get = (data: PyValue, key: string, fallback: PyValue | undefined = null): PyValue | undefined => {
  if (!isPyDict(data)) throw new Error(`'${pyTypeName(data)}' object has no attribute 'get'`);
  return dictHasKey(data, key) ? (dictGet(data, key) as PyValue) : fallback;
};

const list = (value: PyValue | undefined): PyValue[] => {
  if (Array.isArray(value)) return value;
  throw new Error(`'${pyTypeName(value ?? null)}' object is not iterable`);
};

const tags = (value: PyValue | undefined): PyValue | undefined => (typeof value === 'string' ? [value] : value);

const USER_SEVERITIES = ['minor', 'critical_helped', 'critical_hindered'];
const isCriticalUser = (severity: string | null): boolean => severity === 'critical_helped' || severity === 'critical_hindered';

const reviewError = (data: PyValue): ReviewError => {
  const sourceText = get(data, 'source', 'unknown');
  if (typeof sourceText !== 'string') throw new Error(`'${pyTypeName(sourceText ?? null)}' object has no attribute 'lower'`);
  const source = sourceText.toLowerCase() === 'user' ? 'user' : sourceText.toLowerCase() === 'agent' ? 'agent' : 'unknown';
  const severity = get(data, 'severity');
  const allowed = source === 'user' ? USER_SEVERITIES : source === 'agent' ? ['minor', 'critical'] : [];
  return constructModel('ReviewError', ReviewErrorSchema, {
    source,
    error_type: get(data, 'error_type'),
    error_tags: tags(get(data, 'error_tags', [])),
    severity: typeof severity === 'string' && allowed.includes(severity) ? severity : null,
    turn_idx: get(data, 'turn_idx'),
    tick_start: get(data, 'tick_start'),
    tick_end: get(data, 'tick_end'),
    reasoning: get(data, 'reasoning', ''),
    correct_behavior: get(data, 'correct_behavior'),
  });
};

/** The full review (agent and user errors) of an answer, with the call's cost. */
export const parseReview = (content: string, cost: number): Review => {
  const data = parsePyJson(extractJson(content));
  const summary = get(data, 'summary', '');
  const errors = list(get(data, 'errors', [])).map(reviewError);
  return constructModel('Review', ReviewSchema, {
    summary,
    agent_error: errors.some((e) => e.source === 'agent'),
    user_error: errors.some((e) => e.source === 'user'),
    critical_user_error: errors.some((e) => e.source === 'user' && isCriticalUser(e.severity)),
    has_errors: errors.length > 0,
    errors,
    cost: pyFloat(cost),
  });
};

const userOnlyError = (data: PyValue): UserOnlyReviewError => {
  const severity = get(data, 'severity');
  return constructModel('UserOnlyReviewError', UserOnlyReviewErrorSchema, {
    turn_idx: get(data, 'turn_idx'),
    tick_start: get(data, 'tick_start'),
    tick_end: get(data, 'tick_end'),
    error_type: get(data, 'error_type', 'content_error'),
    error_tags: tags(get(data, 'error_tags', [])),
    severity: typeof severity === 'string' && USER_SEVERITIES.includes(severity) ? severity : null,
    reasoning: get(data, 'reasoning', ''),
    user_message: get(data, 'user_message'),
    correct_behavior: get(data, 'correct_behavior'),
  });
};

/** The user-only review of an answer, with the call's cost. */
export const parseUserOnlyReview = (content: string, cost: number): UserOnlyReview => {
  const data = parsePyJson(extractJson(content));
  const summary = get(data, 'summary', '');
  const errors = list(get(data, 'errors', [])).map(userOnlyError);
  return constructModel('UserOnlyReview', UserOnlyReviewSchema, {
    summary,
    user_error: errors.length > 0,
    critical_user_error: errors.some((e) => isCriticalUser(e.severity)),
    has_errors: errors.length > 0,
    errors,
    cost: pyFloat(cost),
  });
};

/** A user error's turn and severity as the reviewer stated them. */
export interface StatedUserError {
  readonly turn_idx: number | null;
  readonly severity: string | null;
}

/**
 * The errors of a user-only review answer as stated, read without the review model's checks: that model refuses
 * the critical_helped/critical_hindered severities its own prompt asks for, so a review naming one is recorded as
 * unreadable, though its answer says which turns the reviewer blames. Empty when the answer holds no such list.
 */
export const statedUserErrors = (content: string): StatedUserError[] => {
  let errors: PyValue | undefined;
  try {
    errors = get(parsePyJson(extractJson(content)), 'errors', []);
  } catch {
    return [];
  }
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((error) => {
    if (!isPyDict(error)) return [];
    const turn = dictGet(error, 'turn_idx');
    const severity = dictGet(error, 'severity');
    return [{ turn_idx: typeof turn === 'number' && Number.isInteger(turn) ? turn : null, severity: typeof severity === 'string' ? severity : null }];
  });
};

const STATUSES = ['succeeded', 'failed', 'not_needed'];

/** The authentication verdict of an answer: the first brace pair without nesting; anything unreadable is not_needed. */
export const parseAuthentication = (content: string, cost: number): AuthenticationClassification => {
  const unreadable = { status: 'not_needed', reasoning: 'Could not parse response', cost: pyFloat(cost) } as const;
  const match = /\{[^{}]*\}/.exec(content);
  if (!match) return unreadable;
  let data: PyValue;
  try {
    data = parsePyJson(match[0]);
  } catch {
    return unreadable;
  }
  const status = get(data, 'status', 'not_needed');
  return constructModel('AuthenticationClassification', AuthenticationClassificationSchema, {
    status: typeof status === 'string' && STATUSES.includes(status) ? status : 'not_needed',
    reasoning: get(data, 'reasoning', ''),
    cost: pyFloat(cost),
  });
};
