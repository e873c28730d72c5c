// An episode as its participant addresses it (its object, its run, whether and whom the caller plays), and the
// tenant's episode an id names: an id names any run, task and trial, and only the tenant's run's own episodes are
// found, before any episode object is reached.
import { z } from 'zod';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { isExternalAgent } from '../../core/schemas/episode.ts';
import type { TurnRole } from '../../core/orchestrator/step.ts';
import { runHasEpisode } from '../../core/episode/run-episode.ts';
import { loadDomain } from '../data/domains.ts';
import { decodeConfig, findRun } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { episodeKey, episodeOfId } from './launch.ts';
import type { EpisodeRef } from './launch.ts';
import type { Refusal } from './refusals.ts';

/** An episode as its participant addresses it: its object, its run, and whether and whom the caller plays. */
export const EpisodeHandleSchema = z.object({
  key: z.string(),
  run_id: z.string(),
  task_id: z.string(),
  trial: z.number().int(),
  /** Whether a participant of the episode is played from outside (the agent or the user). */
  external: z.boolean(),
  role: z.enum(['agent', 'user']),
});
export type EpisodeHandle = z.infer<typeof EpisodeHandleSchema>;

/** The role the caller plays in an episode of this run. */
const roleOf = (config: RunConfig): TurnRole => (config.user === 'external_user' ? 'user' : 'agent');

/** The handles of the run's episodes, its configuration decoded once by the caller. */
export const handleIn =
  (run: RunRow, config: RunConfig) =>
  (ref: EpisodeRef): EpisodeHandle => ({ ...ref, key: episodeKey(run.id, ref), run_id: run.id, external: isExternalAgent(config.agent) || config.user === 'external_user', role: roleOf(config) });

/**
 * The tenant's episode of that id; another tenant's is as unknown as one that never existed, and so is a task and
 * trial its run does not have (an id names any), before any episode object is reached.
 */
export const findEpisode = async (env: Env, tenant: string, id: string): Promise<{ kind: 'found'; handle: EpisodeHandle; run: RunRow } | Refusal> => {
  const unknown: Refusal = { kind: 'not_found', message: `Episode ${id} not found` };
  const ref = episodeOfId(id);
  const run = ref === null ? null : await findRun(env.DB, ref.run_id, tenant);
  if (ref === null || run === null) return unknown;
  const config = decodeConfig(run.config);
  if (!(await runHasEpisode(config, ref, async () => (await loadDomain(env.ASSETS, config.domain)).data))) return unknown;
  return { kind: 'found', handle: handleIn(run, config)(ref), run };
};
