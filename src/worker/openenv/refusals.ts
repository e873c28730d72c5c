// The episode service's refusals in OpenEnv's terms: each kind its OpenEnv error code, with the step API's
// status and code alongside (`status`, `reason`), so a client of either wire reads the same cause.
import type { ApiIssue } from '../../api/index.ts';
import type { OpenEnvErrorCode } from '../../api/openenv.ts';
import { refusalMessage } from '../episode/refusals.ts';
import type { Refusal } from '../episode/refusals.ts';

export interface RefusalData {
  readonly message: string;
  readonly status: number;
  readonly reason: string;
  /** A 400's issues, naming each offending field. */
  readonly errors?: ApiIssue[];
}

const STEP_API_STATUS: Record<Refusal['kind'], readonly [number, string]> = {
  not_found: [404, 'not_found'],
  invalid: [400, 'invalid_request'],
  conflict: [409, 'conflict'],
  done: [409, 'conflict'],
  cancelled: [409, 'conflict'],
  not_ready: [503, 'not_ready'],
  quota: [429, 'quota_exceeded'],
  key_reused: [422, 'idempotency_key_reused'],
  overloaded: [503, 'overloaded'],
};

/** What a refusal says, and the step API's status and code of it. */
export const refusalData = (refusal: Refusal): RefusalData => {
  const [status, code] = STEP_API_STATUS[refusal.kind];
  if (refusal.kind !== 'invalid') return { message: refusalMessage(refusal), status, reason: code };
  return { message: refusalMessage(refusal), status, reason: refusal.limit === true ? 'limit_exceeded' : code, errors: [...refusal.issues] };
};

/**
 * OpenEnv's code of a refusal: a bad request is a validation error, a quota or an overload its capacity reached, and any other
 * refusal of a reset OpenEnv's failure to make the session's environment (of a step, of executing it).
 */
export const openEnvCode = (refusal: Refusal, phase: 'reset' | 'step'): OpenEnvErrorCode =>
  refusal.kind === 'invalid' ? 'VALIDATION_ERROR' : refusal.kind === 'quota' || refusal.kind === 'overloaded' ? 'CAPACITY_REACHED' : phase === 'reset' ? 'FACTORY_ERROR' : 'EXECUTION_ERROR';
