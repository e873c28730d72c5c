// API errors: each carries its status and a stable code; one handler turns every error into
// `{"error": {"code", "message", "issues"?}}`.
import { HTTPException } from 'hono/http-exception';
import type { ErrorHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { ApiErrorBody, ApiErrorCode, ApiIssue } from '../../core/schemas/api.ts';
import type { Refusal } from '../runs/launch.ts';

export class ApiError extends HTTPException {
  readonly code: ApiErrorCode;
  readonly issues: readonly ApiIssue[] | undefined;
  /** Response headers the error sets (e.g. Retry-After). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: ContentfulStatusCode, code: ApiErrorCode, message: string, issues?: readonly ApiIssue[], headers: Record<string, string> = {}) {
    super(status, { message });
    this.code = code;
    this.issues = issues;
    this.headers = headers;
  }

  body(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.issues ? { issues: [...this.issues] } : {}) } };
  }
}

export const notFound = (what: string, id: string): ApiError => new ApiError(404, 'not_found', `${what} ${id} not found`);

/** A 400 naming each offending field and the reason, e.g. `num_trials: Too small: expected number to be >0`. */
export const invalidRequest = (issues: readonly ApiIssue[]): ApiError =>
  new ApiError(400, 'invalid_request', issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '), issues);

/** A zod issue in the caller's terms: the expected JSON type, never the engine's internal class of what came. */
const issueMessage = (issue: z.core.$ZodIssue): string =>
  issue.code === 'invalid_type' ? `Invalid input: expected ${issue.expected}` : issue.message;

export const zodIssues = (error: z.ZodError): ApiIssue[] =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issueMessage(issue) }));

/** A configuration that selects no work: 400 naming the field, `limit_exceeded` when over an operator limit. */
export const refused = (refusal: Refusal, pathPrefix = ''): ApiError => {
  const issues = refusal.issues.map((i) => ({ ...i, path: pathPrefix + i.path }));
  const error = invalidRequest(issues);
  return refusal.code === 'invalid_request' ? error : new ApiError(400, 'limit_exceeded', error.message, issues);
};

/** Seconds a caller is asked to wait after the runtime ran out of a resource. */
const OVERLOAD_RETRY_SECONDS = 30;

/**
 * The runtime out of a resource rather than a defect of this code: an object over its load (the platform's
 * `overloaded` error), no file left to open a database or socket with, or a failure inside the runtime, which
 * workerd reports to the code only as `internal error; reference = …` and logs itself (at the machine's
 * open-file limit, a new object's `SQLITE_CANTOPEN` arrives so). Such a request may succeed later.
 */
export const isOverload = (err: unknown): boolean => {
  if (!(err instanceof Error)) return false;
  if ((err as { overloaded?: unknown }).overloaded === true) return true;
  return /SQLITE_CANTOPEN|\bEMFILE\b|too many open files|^internal error; reference = /i.test(err.message);
};

/** 503 `overloaded`: the worker is out of capacity now, and says when to ask again. */
export const overloaded = (message = 'This worker is out of capacity for now; try again later', retryAfterSeconds = OVERLOAD_RETRY_SECONDS): ApiError =>
  new ApiError(503, 'overloaded', message, undefined, { 'Retry-After': String(retryAfterSeconds) });

export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ApiError) return c.json(err.body(), err.status, err.headers);
  if (isOverload(err)) {
    console.error('overloaded', err);
    const refusal = overloaded();
    return c.json(refusal.body(), refusal.status, refusal.headers);
  }
  if (err instanceof HTTPException) {
    const body: ApiErrorBody = { error: { code: err.status === 401 ? 'unauthorized' : 'invalid_request', message: err.message } };
    return c.json(body, err.status);
  }
  console.error('unhandled error', err);
  const body: ApiErrorBody = { error: { code: 'internal_error', message: 'Internal error' } };
  return c.json(body, 500);
};
