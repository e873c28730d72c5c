// Tenants' quotas, reserved before anything is created: a run, a one-episode run (an episode), a rerun or a schedule
// is written only if it fits, by one conditional statement (db/quotas.ts says why that is atomic). One that does
// not fit is answered with a quota refusal naming the quota, the usage and limit the refused write saw and when
// to try again (the next UTC day for daily quotas), and nothing is created; each caller turns the refusal into
// its own answer (the HTTP API a 429, OpenEnv CAPACITY_REACHED, the cron the schedule's last error). A run that
// reaches the daily USD budget while it runs is stopped by its RunDO (tenancy/budget.ts).
import type { ApiIssue, TenantUsage } from '../../api/index.ts';
import { addRoundWithinQuotas, insertRunWithinQuotas, insertScheduleWithinQuota, takeInfraErrorsWithinQuotas } from '../db/quotas.ts';
import type { Quota, QuotaSnapshot } from '../db/quotas.ts';
import { dayStart } from '../db/statement.ts';
import { findRunByIdempotencyKey } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import type { ScheduleRow } from '../db/schedules.ts';
import { limits } from './limits.ts';

/** Why a launch or a schedule was not created: over one of the tenant's quotas. */
export interface QuotaRefusal {
  readonly kind: 'quota';
  readonly quota: Quota;
  /** `Quota <quota> reached: <usage against limit>`. */
  readonly message: string;
  /** One issue, its path the quota. */
  readonly issues: readonly ApiIssue[];
  /** What the tenant used as the refused write saw it. */
  readonly usage: TenantUsage;
  /** The quota's value in force (for schedules, the lower of the tenant's quota and the operator's limit). */
  readonly limit: number;
  /** Seconds until trying again can succeed. */
  readonly retry_after_seconds: number;
}

export const isQuotaRefusal = (outcome: unknown): outcome is QuotaRefusal =>
  typeof outcome === 'object' && outcome !== null && (outcome as { kind?: unknown }).kind === 'quota';

/** Seconds from `nowMs` to the next 00:00 UTC, when daily quotas start afresh. */
const untilTomorrow = (nowMs: number): number => Math.max(1, Math.ceil((Date.parse(dayStart(nowMs)) + 86_400_000 - nowMs) / 1000));

/** How long a caller over the in-flight or schedules quota waits before trying again. */
const IN_FLIGHT_RETRY_SECONDS = 60;

type OverQuota = QuotaSnapshot & { readonly quota: Quota };

const isOverQuota = (snapshot: QuotaSnapshot): snapshot is OverQuota => snapshot.quota !== null;

const refusal = ({ quota, usage }: OverQuota, limit: number, detail: string, retryAfterSeconds: number): QuotaRefusal => ({
  kind: 'quota',
  quota,
  message: `Quota ${quota} reached: ${detail}`,
  issues: [{ path: quota, message: detail }],
  usage,
  limit,
  retry_after_seconds: retryAfterSeconds,
});

/** The refusal of a write over a quota, with the usage and limit it saw. */
const quotaRefusal = (over: OverQuota, nowMs: number): QuotaRefusal => {
  const { quota, usage, quotas, asked } = over;
  const limit = quotas[quota]!;
  switch (quota) {
    case 'usd_per_day':
      return refusal(over, limit, `${usage.usd_today.toFixed(4)} USD spent today of ${limit}`, untilTomorrow(nowMs));
    case 'episodes_per_day':
      return refusal(over, limit, `${usage.episodes_today} episodes launched today, ${asked} more asked, ${limit} allowed`, untilTomorrow(nowMs));
    case 'episodes_in_flight':
      return refusal(over, limit, `${usage.episodes_in_flight} episodes in flight, ${asked} more asked, ${limit} allowed`, IN_FLIGHT_RETRY_SECONDS);
    case 'schedules':
      return refusal(over, limit, `${usage.schedules} schedules kept, ${limit} allowed`, IN_FLIGHT_RETRY_SECONDS);
  }
};

/**
 * Records the run if its episodes fit the tenant's quotas. A request whose Idempotency-Key is taken gets the run
 * of that key instead (created false), even when the quotas are spent now: it asks for nothing new. Either comes
 * with the tenant's daily USD budget (null: none), read with the reservation. A run that may only be recorded
 * without a budget (`budgetless`: it calls a model of no known price) is `budgeted` under one, and nothing is written.
 */
export const reserveRun = async (env: Env, row: RunRow, nowMs: number, budgetless = false): Promise<{ run: RunRow; created: boolean; usdPerDay: number | null } | QuotaRefusal | 'budgeted'> => {
  const { refusal: snapshot, usdPerDay } = await insertRunWithinQuotas(env.DB, row, nowMs, budgetless);
  if (snapshot === null) return { run: row, created: true, usdPerDay };
  if (budgetless && usdPerDay !== null) return 'budgeted';
  const replayed = row.idempotencyKey === null ? null : await findRunByIdempotencyKey(env.DB, row.idempotencyKey);
  if (replayed !== null) return { run: replayed, created: false, usdPerDay };
  if (isOverQuota(snapshot)) return quotaRefusal(snapshot, nowMs);
  throw new Error(`Run ${row.id} could not be recorded`);
};

/** Records the schedule if the tenant keeps fewer than its quota and the operator's LIMIT_MAX_SCHEDULES allow. */
export const reserveSchedule = async (env: Env, row: ScheduleRow, nowMs: number): Promise<QuotaRefusal | null> => {
  const maxSchedules = limits(env).LIMIT_MAX_SCHEDULES;
  const snapshot = await insertScheduleWithinQuota(env.DB, row, nowMs, maxSchedules);
  if (snapshot === null || !isOverQuota(snapshot)) return null;
  const allowed = Math.min(snapshot.quotas.schedules ?? maxSchedules, maxSchedules);
  return quotaRefusal({ ...snapshot, quotas: { ...snapshot.quotas, schedules: allowed } }, nowMs);
};

/**
 * Takes the run's infrastructure errors to launch them again if they fit the tenant's quotas (the run is back in
 * flight, its errors' simulations removed); returns them, none when there are none.
 */
export const reserveRerun = async (env: Env, run: RunRow, nowMs: number): Promise<Array<{ task_id: string; trial: number }> | QuotaRefusal> => {
  const taken = await takeInfraErrorsWithinQuotas(env.DB, run, nowMs);
  if ('episodes' in taken) return taken.episodes;
  return isOverQuota(taken) ? quotaRefusal(taken, nowMs) : [];
};

/** Reserves a round of `asked` episodes for a run adding rounds (see runs/rounds.ts); null when reserved, else why not. */
export const reserveRound = async (env: Env, run: RunRow, configText: string, asked: number, nowMs: number): Promise<string | null> => {
  const refusal = await addRoundWithinQuotas(env.DB, run, configText, asked, nowMs);
  if (refusal === null) return null;
  return isOverQuota(refusal) ? quotaRefusal(refusal, nowMs).message : `Run ${run.id} is no longer running`;
};
