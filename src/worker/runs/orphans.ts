// Orphan runs: a run row is written to D1 before its RunDO starts, so a start that failed without recording
// it, or a runtime that died between the two, leaves a run `running` with no episodes. The cron finds such
// runs once they are old enough to be no launch still in progress, and finishes their launch (starting is
// idempotent) or ends them `failed` with the reason.
import { decodeConfig, staleRunningRuns } from '../db/runs.ts';
import { failRun, selectEpisodes, startRun } from './launch.ts';

/** A launch still unstarted after this long is not in progress any more. */
export const ORPHAN_AGE_MS = 60_000;
/** Runs looked at per cron tick, oldest first. */
const REPAIRS_PER_TICK = 50;

export const repairOrphanRuns = async (env: Env, nowMs: number): Promise<string[]> => {
  const repaired: string[] = [];
  const candidates = await staleRunningRuns(env.DB, new Date(nowMs - ORPHAN_AGE_MS).toISOString(), REPAIRS_PER_TICK);
  for (const run of candidates) {
    if (await env.RUN.getByName(run.id).isStarted()) continue;
    try {
      const selection = await selectEpisodes(env, decodeConfig(run.config));
      if (selection.ok) await startRun(env, run, selection.episodes);
      else await failRun(env, run.id, `The run could not be started: ${selection.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    } catch (error) {
      // startRun has already recorded the failure; the next runs are still repaired.
      console.error(`orphan run ${run.id} not repaired: ${error instanceof Error ? error.message : String(error)}`);
    }
    repaired.push(run.id);
  }
  return repaired;
};
