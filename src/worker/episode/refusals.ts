// Why the episode service did not do what was asked, as values: each transport maps a refusal to its own wire
// (the step API to HTTP statuses, OpenEnv to its error codes, MCP to JSON-RPC errors).
import type { ApiIssue } from '../../api/index.ts';
import { isOverload, OVERLOAD_RETRY_SECONDS } from '../overload.ts';
import type { QuotaRefusal } from '../tenancy/quotas.ts';

export type Refusal =
  /** No such episode for this caller (another tenant's, a malformed id, a task and trial its run does not have). */
  | { readonly kind: 'not_found'; readonly message: string }
  /** The request is not one the service takes; `limit` when it is over an operator limit. */
  | { readonly kind: 'invalid'; readonly issues: readonly ApiIssue[]; readonly limit?: boolean }
  /** The step does not fit where the episode stands (another answer to it, not waited for, nobody outside plays). */
  | { readonly kind: 'conflict'; readonly message: string }
  /** The episode is over; only its final step, sent again unchanged, is answered. */
  | { readonly kind: 'done'; readonly message: string; readonly final_step: number | null }
  | { readonly kind: 'cancelled'; readonly message: string }
  /** Nothing to answer with in time: the caller asks again (a step is applied once). `location`: where to read it. */
  | { readonly kind: 'not_ready'; readonly message: string; readonly location?: string }
  /** Over one of the tenant's quotas. */
  | QuotaRefusal
  /** An idempotency key already used with another request. */
  | { readonly kind: 'key_reused'; readonly message: string }
  /** The worker is out of capacity now (live objects at their bound, the runtime out of a resource). */
  | { readonly kind: 'overloaded'; readonly message: string; readonly retry_after: string };

const REFUSAL_KINDS: ReadonlySet<string> = new Set<Refusal['kind']>(['not_found', 'invalid', 'conflict', 'done', 'cancelled', 'not_ready', 'quota', 'key_reused', 'overloaded']);

/** Whether an outcome is a refusal. */
export const isRefused = <T extends { readonly kind: string }>(outcome: T | Refusal): outcome is Refusal => REFUSAL_KINDS.has(outcome.kind);

/** A refusal's text: its message, or its issues joined (`path: message; …`). */
export const refusalMessage = (refusal: Refusal): string =>
  refusal.kind === 'invalid' ? refusal.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ') : refusal.message;

/**
 * The worker out of capacity, as the live-objects bound throws it (an `overloaded` error with its Retry-After) or
 * as the runtime fails when out of a resource; read by fields, like a quota's refusal.
 */
export const overloadRefusal = (error: unknown): Refusal | null => {
  const thrown = error as { code?: unknown; message?: unknown; headers?: Record<string, string> } | null;
  if (thrown !== null && typeof thrown === 'object' && thrown.code === 'overloaded') {
    return { kind: 'overloaded', message: String(thrown.message), retry_after: thrown.headers?.['Retry-After'] ?? String(OVERLOAD_RETRY_SECONDS) };
  }
  if (!isOverload(error)) return null;
  return { kind: 'overloaded', message: 'This worker is out of capacity for now; try again later', retry_after: String(OVERLOAD_RETRY_SECONDS) };
};
