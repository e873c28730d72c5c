// API errors: each carries its status and a stable code; one handler turns every error into
// `{"error": {"code", "message", "issues"?}}`.
import { HTTPException } from 'hono/http-exception';
import type { ErrorHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody, ApiErrorCode, ApiIssue } from '../../api/index.ts';
import type { Refusal } from '../tenancy/limits.ts';
import type { QuotaRefusal } from '../tenancy/quotas.ts';
import type { UnpricedRefusal } from '../tenancy/priced-models.ts';
import { isOverload, OVERLOAD_RETRY_SECONDS } from '../overload.ts';

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

export { zodIssues } from '../../core/schemas/issues.ts';

/** A configuration that selects no work: 400 naming the field, `limit_exceeded` when over an operator limit. */
export const refused = (refusal: Refusal, pathPrefix = ''): ApiError => {
  const issues = refusal.issues.map((i) => ({ ...i, path: pathPrefix + i.path }));
  const error = invalidRequest(issues);
  return refusal.code === 'invalid_request' ? error : new ApiError(400, 'limit_exceeded', error.message, issues);
};

/** 503 `overloaded`: the worker is out of capacity now, and says when to ask again. */
export const overloaded = (message = 'This worker is out of capacity for now; try again later', retryAfterSeconds = OVERLOAD_RETRY_SECONDS): ApiError =>
  new ApiError(503, 'overloaded', message, undefined, { 'Retry-After': String(retryAfterSeconds) });

/** A quota's refusal: 429 naming the quota, with Retry-After. */
export const quotaExceeded = (refusal: QuotaRefusal): ApiError =>
  new ApiError(429, 'quota_exceeded', refusal.message, refusal.issues, { 'Retry-After': String(refusal.retry_after_seconds) });

/** A run calling a model without a known price under a USD budget: 400 naming each model's field. */
export const unpricedModels = (refusal: UnpricedRefusal): ApiError => new ApiError(400, 'invalid_request', refusal.message, refusal.issues);

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
