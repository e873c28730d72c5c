// Errors: every failure answers ApiErrorSchema, with a stable code and the issues naming each field.
import { z } from 'zod';
import { ApiIssueSchema } from '../core/schemas/issues.ts';

export const ApiErrorCodeSchema = z.enum([
  'invalid_request',
  'unauthorized',
  'csrf_failed',
  'not_found',
  'conflict',
  'idempotency_key_reused',
  'limit_exceeded',
  'payload_too_large',
  'unsupported_media_type',
  'method_not_allowed',
  'rate_limited',
  'quota_exceeded',
  'not_configured',
  'not_ready',
  'overloaded',
  'internal_error',
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;


/** `message` names the field and the reason, e.g. `num_trials: Too small: expected number to be >0`. */
export const ApiErrorSchema = z.object({
  error: z.object({ code: ApiErrorCodeSchema, message: z.string(), issues: z.array(ApiIssueSchema).optional() }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

export { ApiIssueSchema } from '../core/schemas/issues.ts';
export type { ApiIssue } from '../core/schemas/issues.ts';
