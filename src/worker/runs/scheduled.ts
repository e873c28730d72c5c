// The cron trigger: launches the enabled schedules that are due, a bounded page of them per tick (the longest
// overdue first; the rest on the next ticks), so that one invocation stays inside the platform's per-invocation
// limits however many are due; moves each one's next run on by its interval, then repairs orphan runs. Each
// schedule is launched on its own: one that fails, or that its tenant's quotas refuse, records why on itself and
// the others still launch.
import { MAX_INTERVAL_MINUTES } from '../../api/index.ts';
import { decodeConfig } from '../db/runs.ts';
import { dueSchedules, updateSchedule } from '../db/schedules.ts';
import type { ScheduleRow } from '../db/schedules.ts';
import { launchRun, selectEpisodes } from './launch.ts';
import { isQuotaRefusal } from '../tenancy/quotas.ts';
import { isUnpricedRefusal } from '../tenancy/priced-models.ts';
import { repairOrphanRuns } from './orphans.ts';

/** Idempotency keys of scheduled launches; callers' keys live in their own namespace (db/runs.ts). */
export const scheduleLaunchKey = (schedule: ScheduleRow): string => `schedule:${schedule.id}:${schedule.nextRunAt}`;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Launches one due schedule; returns the run id, null when over its tenant's quotas, or throws why it could not. */
const launchSchedule = async (env: Env, schedule: ScheduleRow, nowIso: string): Promise<string | null> => {
  const config = decodeConfig(schedule.runConfig);
  const selection = await selectEpisodes(env, config);
  if (!selection.ok) throw new Error(selection.issues.map((i) => `run.${i.path}: ${i.message}`).join('; '));
  // Within the tenant's quotas (launchRun reserves them); the key makes a replayed trigger for the same due time
  // launch nothing new.
  const launched = await launchRun(env, config, selection.episodes, {
    tenant: schedule.tenantId,
    scheduleId: schedule.id,
    idempotencyKey: scheduleLaunchKey(schedule),
    agentHeadersCiphertext: schedule.agentHeadersCiphertext,
  });
  // Over a quota, or an unpriced model under the budget, is the tenant's state, not a failure: the schedule notes
  // it and launches again when next due.
  if (isQuotaRefusal(launched) || isUnpricedRefusal(launched)) {
    await updateSchedule(env.DB, schedule.id, { lastError: launched.message, updatedAt: nowIso });
    return null;
  }
  await updateSchedule(env.DB, schedule.id, { lastRunAt: nowIso, lastRunId: launched.run.id, lastError: null, updatedAt: nowIso });
  return launched.run.id;
};

/** Due schedules one tick launches at most: each launch is a handful of D1 and Durable Object calls. */
export const SCHEDULES_PER_TICK = 25;

export const launchDueSchedules = async (env: Env, nowMs: number): Promise<string[]> => {
  const launched: string[] = [];
  const nowIso = new Date(nowMs).toISOString();
  for (const schedule of await dueSchedules(env.DB, nowIso, SCHEDULES_PER_TICK)) {
    try {
      // Moved on first, so a schedule that cannot launch is not retried on every tick (an interval stored
      // before intervals were bounded counts as the longest one).
      const intervalMs = Math.min(schedule.intervalMinutes, MAX_INTERVAL_MINUTES) * 60_000;
      await updateSchedule(env.DB, schedule.id, { nextRunAt: new Date(nowMs + intervalMs).toISOString() });
      const runId = await launchSchedule(env, schedule, nowIso);
      if (runId !== null) launched.push(runId);
    } catch (error) {
      console.error(`schedule ${schedule.id} not launched: ${message(error)}`);
      await updateSchedule(env.DB, schedule.id, { lastError: message(error), updatedAt: nowIso }).catch(() => undefined);
    }
  }
  await repairOrphanRuns(env, nowMs);
  return launched;
};
