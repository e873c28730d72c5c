// Why the episode service did not do what was asked, as values: each transport maps a refusal to its own wire
// (the step API to HTTP statuses, OpenEnv to its error codes, MCP to JSON-RPC errors).
import type { ApiIssue } from '../../core/schemas/api.ts';
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
  | { readonly kind: 'key_reused'; readonly message: string };

const REFUSAL_KINDS: ReadonlySet<string> = new Set<Refusal['kind']>(['not_found', 'invalid', 'conflict', 'done', 'cancelled', 'not_ready', 'quota', 'key_reused']);

/** Whether an outcome is a refusal. */
export const isRefused = <T extends { readonly kind: string }>(outcome: T | Refusal): outcome is Refusal => REFUSAL_KINDS.has(outcome.kind);

/** A refusal's text: its message, or its issues joined (`path: message; …`). */
export const refusalMessage = (refusal: Refusal): string =>
  refusal.kind === 'invalid' ? refusal.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ') : refusal.message;
