// The cron trigger: launches every enabled schedule that is due and moves its next run on by its interval.
import { decodeConfig } from '../db/runs.ts';
import { dueSchedules, updateSchedule } from '../db/schedules.ts';
import { launchRun, selectEpisodes } from './launch.ts';

export const launchDueSchedules = async (env: Env, nowMs: number): Promise<string[]> => {
  const launched: string[] = [];
  const nowIso = new Date(nowMs).toISOString();
  for (const schedule of await dueSchedules(env.DB, nowIso)) {
    const nextRunAt = new Date(nowMs + schedule.intervalMinutes * 60_000).toISOString();
    const config = decodeConfig(schedule.runConfig);
    const selection = await selectEpisodes(env, config);
    if (!selection.ok) {
      console.error(`schedule ${schedule.id} not launched: ${selection.issue.path}: ${selection.issue.message}`);
      await updateSchedule(env.DB, schedule.id, { nextRunAt, updatedAt: nowIso });
      continue;
    }
    // The key makes a replayed trigger for the same due time launch nothing new.
    const { run } = await launchRun(env, config, selection.episodes, {
      scheduleId: schedule.id,
      idempotencyKey: `schedule:${schedule.id}:${schedule.nextRunAt}`,
    });
    await updateSchedule(env.DB, schedule.id, { nextRunAt, lastRunAt: nowIso, lastRunId: run.id, updatedAt: nowIso });
    launched.push(run.id);
  }
  return launched;
};
