// Launching a run: choose its episodes (tasks × trials, as a batch run would), record it in D1 and hand the
// episodes to its RunDO, which fans them out.
import { domains } from '../../../domains/registry.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { ApiIssue } from '../../core/schemas/api.ts';
import { runTasks, workUnits } from '../../core/runner/batch.ts';
import { loadDomain } from '../data/domains.ts';
import type { EpisodeRef } from '../episode/launch.ts';
import { encodeConfig, findRunByIdempotencyKey, insertRun } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';

export type Selection = { readonly ok: true; readonly episodes: EpisodeRef[] } | { readonly ok: false; readonly issue: ApiIssue };

/** The run's episodes in work-unit order (trial-major), or why the configuration selects none. */
export const selectEpisodes = async (env: Env, config: RunConfig): Promise<Selection> => {
  if (!Object.hasOwn(domains, config.domain)) {
    return { ok: false, issue: { path: 'domain', message: `Unknown domain ${config.domain}. Available: ${Object.keys(domains).join(', ')}` } };
  }
  const { data } = await loadDomain(env.ASSETS, config.domain);
  let tasks;
  try {
    tasks = runTasks(config, data);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, issue: { path: message.includes('split') ? 'task_split_name' : 'task_ids', message } };
  }
  if (tasks.length === 0) return { ok: false, issue: { path: 'task_ids', message: 'No tasks to run' } };
  return { ok: true, episodes: workUnits(config, tasks).map((u) => ({ task_id: u.task.id, trial: u.trial })) };
};

export interface LaunchOptions {
  readonly scheduleId?: string;
  readonly idempotencyKey?: string;
  readonly requestHash?: string;
}

/** Records and starts the run; with an Idempotency-Key already used, returns that run instead (created false). */
export const launchRun = async (
  env: Env,
  config: RunConfig,
  episodes: readonly EpisodeRef[],
  options: LaunchOptions = {},
): Promise<{ run: RunRow; created: boolean }> => {
  const now = new Date().toISOString();
  const row: RunRow = {
    id: crypto.randomUUID(),
    status: 'running',
    config: encodeConfig(config),
    total: episodes.length,
    scheduleId: options.scheduleId ?? null,
    idempotencyKey: options.idempotencyKey ?? null,
    requestHash: options.requestHash ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const created = await insertRun(env.DB, row);
  const run = created ? row : await findRunByIdempotencyKey(env.DB, options.idempotencyKey!);
  if (!run) throw new Error(`Run ${row.id} could not be recorded`);
  // Starting is idempotent: a retried request also finishes a launch that was cut short.
  await env.RUN.getByName(run.id).start(run.id, run.config, episodes);
  return { run, created };
};
