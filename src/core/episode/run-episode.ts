// Whether an episode (task × trial) is one its run has: a task the run selects, a trial below its num_trials,
// not one it skips. An episode id names any task and trial; only those the run has name an episode.
import type { DomainData } from '../environment/domain.ts';
import type { RunConfig } from '../schemas/run-config.ts';
import { runTasks } from '../runner/batch.ts';

export interface EpisodeRef {
  readonly task_id: string;
  readonly trial: number;
}

/** What the configuration alone rules out, without the domain's tasks: a trial past the run's, a task not named, a skipped episode. */
const outsideRun = (config: RunConfig, ref: EpisodeRef): boolean =>
  ref.trial >= config.num_trials ||
  (config.task_ids !== null && !config.task_ids.includes(ref.task_id)) ||
  config.skip_episodes.some((e) => e.task_id === ref.task_id && e.trial === ref.trial);

/** Whether the run of `config` has the episode; the domain's data is read only when the configuration alone does not say. */
export const runHasEpisode = async (config: RunConfig, ref: EpisodeRef, data: () => Promise<DomainData>): Promise<boolean> =>
  !outsideRun(config, ref) && runTasks(config, await data()).some((task) => task.id === ref.task_id);
