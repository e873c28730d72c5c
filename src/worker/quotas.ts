// Tenants' quotas, reserved before anything is created: a run, a one-episode run (an episode), a rerun or a schedule
// is written only if it fits, by one conditional statement (db/quotas.ts says why that is atomic); one that does not
// fit gets 429 naming the quota, with Retry-After (the next UTC day for daily quotas), and nothing is created. A run
// that reaches the daily USD budget while it runs is stopped by its RunDO (runs/run-do.ts); its finished
// simulations keep their scores.
import { ApiError } from './api/errors.ts';
import { addRoundWithinQuotas, insertRunWithinQuotas, insertScheduleWithinQuota, takeInfraErrorsWithinQuotas } from './db/quotas.ts';
import { dayStart } from './db/statement.ts';
import type { Refusal } from './db/quotas.ts';
import { findRunByIdempotencyKey } from './db/runs.ts';
import type { RunRow } from './db/runs.ts';
import type { ScheduleRow } from './db/schedules.ts';
import { limits } from './limits.ts';

/** Seconds from `nowMs` to the next 00:00 UTC, when daily quotas start afresh. */
const untilTomorrow = (nowMs: number): number => Math.max(1, Math.ceil((Date.parse(dayStart(nowMs)) + 86_400_000 - nowMs) / 1000));

/** How long a caller over the in-flight or schedules quota waits before trying again. */
const IN_FLIGHT_RETRY_SECONDS = 60;

const exceeded = (quota: string, detail: string, retryAfterSeconds: number): ApiError =>
  new ApiError(429, 'quota_exceeded', `Quota ${quota} reached: ${detail}`, [{ path: quota, message: detail }], { 'Retry-After': String(retryAfterSeconds) });

/** The 429 of a refusal over a quota, with the usage and limit the refused write saw. */
const quotaExceeded = ({ quota, usage, quotas, asked }: Refusal & { quota: NonNullable<Refusal['quota']> }, nowMs: number): ApiError => {
  switch (quota) {
    case 'usd_per_day':
      return exceeded(quota, `${usage.usd_today.toFixed(4)} USD spent today of ${quotas.usd_per_day}`, untilTomorrow(nowMs));
    case 'episodes_per_day':
      return exceeded(quota, `${usage.episodes_today} episodes launched today, ${asked} more asked, ${quotas.episodes_per_day} allowed`, untilTomorrow(nowMs));
    case 'episodes_in_flight':
      return exceeded(quota, `${usage.episodes_in_flight} episodes in flight, ${asked} more asked, ${quotas.episodes_in_flight} allowed`, IN_FLIGHT_RETRY_SECONDS);
    case 'schedules':
      return exceeded(quota, `${usage.schedules} schedules kept, ${quotas.schedules} allowed`, IN_FLIGHT_RETRY_SECONDS);
  }
};

const isOverQuota = (refusal: Refusal): refusal is Refusal & { quota: NonNullable<Refusal['quota']> } => refusal.quota !== null;

/**
 * Records the run if its episodes fit the tenant's quotas. A request whose Idempotency-Key is taken gets the run
 * of that key instead (created false), even when the quotas are spent now: it asks for nothing new. Throws 429
 * when over a quota.
 */
export const reserveRun = async (env: Env, row: RunRow, nowMs: number): Promise<{ run: RunRow; created: boolean }> => {
  const refusal = await insertRunWithinQuotas(env.DB, row, nowMs);
  if (refusal === null) return { run: row, created: true };
  const replayed = row.idempotencyKey === null ? null : await findRunByIdempotencyKey(env.DB, row.idempotencyKey);
  if (replayed !== null) return { run: replayed, created: false };
  if (isOverQuota(refusal)) throw quotaExceeded(refusal, nowMs);
  throw new Error(`Run ${row.id} could not be recorded`);
};

/**
 * Records the schedule if the tenant keeps fewer than its quota and the operator's LIMIT_MAX_SCHEDULES allow;
 * throws 429 otherwise.
 */
export const reserveSchedule = async (env: Env, row: ScheduleRow, nowMs: number): Promise<void> => {
  const maxSchedules = limits(env).LIMIT_MAX_SCHEDULES;
  const refusal = await insertScheduleWithinQuota(env.DB, row, nowMs, maxSchedules);
  if (refusal === null || !isOverQuota(refusal)) return;
  const allowed = Math.min(refusal.quotas.schedules ?? maxSchedules, maxSchedules);
  throw quotaExceeded({ ...refusal, quotas: { ...refusal.quotas, schedules: allowed } }, nowMs);
};

/**
 * Takes the run's infrastructure errors to launch them again if they fit the tenant's quotas (the run is back in
 * flight, its errors' simulations removed); returns them, none when there are none. Throws 429 when over a quota.
 */
export const reserveRerun = async (env: Env, run: RunRow, nowMs: number): Promise<Array<{ task_id: string; trial: number }>> => {
  const taken = await takeInfraErrorsWithinQuotas(env.DB, run, nowMs);
  if ('episodes' in taken) return taken.episodes;
  if (isOverQuota(taken)) throw quotaExceeded(taken, nowMs);
  return [];
};

/** Reserves a round of `asked` episodes for a run adding rounds (see runs/rounds.ts); null when reserved, else why not. */
export const reserveRound = async (env: Env, run: RunRow, configText: string, asked: number, nowMs: number): Promise<string | null> => {
  const refusal = await addRoundWithinQuotas(env.DB, run, configText, asked, nowMs);
  if (refusal === null) return null;
  return isOverQuota(refusal) ? quotaExceeded(refusal, nowMs).message : `Run ${run.id} is no longer running`;
};
