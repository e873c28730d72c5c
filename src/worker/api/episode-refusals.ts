// The episode service's refusals as the step API's HTTP errors: each kind its status and stable code.
import { isRefused, refusalMessage } from '../episode/refusals.ts';
import type { Refusal } from '../episode/refusals.ts';
import { ApiError, invalidRequest, quotaExceeded } from './errors.ts';

export const httpError = (refusal: Refusal): ApiError => {
  switch (refusal.kind) {
    case 'not_found':
      return new ApiError(404, 'not_found', refusal.message);
    case 'invalid':
      return refusal.limit === true ? new ApiError(400, 'limit_exceeded', refusalMessage(refusal), refusal.issues) : invalidRequest(refusal.issues);
    case 'conflict':
    case 'done':
    case 'cancelled':
      return new ApiError(409, 'conflict', refusal.message);
    case 'not_ready':
      return new ApiError(503, 'not_ready', refusal.message, undefined, { 'Retry-After': '5', ...(refusal.location === undefined ? {} : { Location: refusal.location }) });
    case 'quota':
      return quotaExceeded(refusal);
    case 'key_reused':
      return new ApiError(422, 'idempotency_key_reused', refusal.message);
    case 'overloaded':
      return new ApiError(503, 'overloaded', refusal.message, undefined, { 'Retry-After': refusal.retry_after });
  }
};

/** What the service did, or its refusal thrown as the HTTP error that answers the request. */
export const answered = <T extends { readonly kind: string }>(outcome: T | Refusal): T => {
  if (isRefused(outcome)) throw httpError(outcome);
  return outcome;
};
