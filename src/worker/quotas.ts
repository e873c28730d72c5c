// Tenants' quotas, checked before work starts: a launch or schedule over a quota gets 429 naming the quota,
// with Retry-After (the next UTC day for daily quotas). A run that reaches the daily USD budget while it runs is
// stopped by its RunDO (runs/run-do.ts); its finished simulations keep their scores.
import { ApiError } from './api/errors.ts';
import { dayStart, findQuotas, tenantUsage } from './db/quotas.ts';

/** Seconds from `nowMs` to the next 00:00 UTC, when daily quotas start afresh. */
const untilTomorrow = (nowMs: number): number => Math.max(1, Math.ceil((Date.parse(dayStart(nowMs)) + 86_400_000 - nowMs) / 1000));

/** How long a caller over the in-flight quota waits before trying again. */
const IN_FLIGHT_RETRY_SECONDS = 60;

const exceeded = (quota: string, detail: string, retryAfterSeconds: number): ApiError =>
  new ApiError(429, 'quota_exceeded', `Quota ${quota} reached: ${detail}`, [{ path: quota, message: detail }], { 'Retry-After': String(retryAfterSeconds) });

/** Throws 429 when launching a run of `episodes` episodes would exceed one of the tenant's quotas. */
export const checkRunQuotas = async (env: Env, tenant: string, episodes: number, nowMs: number): Promise<void> => {
  const quotas = await findQuotas(env.DB, tenant);
  if (quotas.episodes_in_flight === null && quotas.episodes_per_day === null && quotas.usd_per_day === null) return;
  const usage = await tenantUsage(env.DB, tenant, nowMs);
  if (quotas.usd_per_day !== null && usage.usd_today >= quotas.usd_per_day) {
    throw exceeded('usd_per_day', `${usage.usd_today.toFixed(4)} USD spent today of ${quotas.usd_per_day}`, untilTomorrow(nowMs));
  }
  if (quotas.episodes_per_day !== null && usage.episodes_today + episodes > quotas.episodes_per_day) {
    throw exceeded('episodes_per_day', `${usage.episodes_today} episodes launched today, ${episodes} more asked, ${quotas.episodes_per_day} allowed`, untilTomorrow(nowMs));
  }
  if (quotas.episodes_in_flight !== null && usage.episodes_in_flight + episodes > quotas.episodes_in_flight) {
    throw exceeded('episodes_in_flight', `${usage.episodes_in_flight} episodes in flight, ${episodes} more asked, ${quotas.episodes_in_flight} allowed`, IN_FLIGHT_RETRY_SECONDS);
  }
};

/** Throws 429 when the tenant already keeps as many schedules as its quota allows. */
export const checkScheduleQuota = async (env: Env, tenant: string, nowMs: number): Promise<void> => {
  const { schedules } = await findQuotas(env.DB, tenant);
  if (schedules === null) return;
  const usage = await tenantUsage(env.DB, tenant, nowMs);
  if (usage.schedules >= schedules) throw exceeded('schedules', `${usage.schedules} schedules kept, ${schedules} allowed`, IN_FLIGHT_RETRY_SECONDS);
};
