// What starts an episode: its run, the run's configuration and which task × trial it plays.
import { z } from 'zod';
import { RunConfigSchema } from '../../core/schemas/run-config.ts';
import { dumpsPy, parsePyJson } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import type { DomainData } from '../../core/environment/domain.ts';
import { workUnits } from '../../core/runner/batch.ts';
import type { SimulationSpec } from '../../core/runner/simulation.ts';
import { base64url, fromBase64url } from '../crypto.ts';

export const EpisodeLaunchSchema = z.object({
  run_id: z.string(),
  config: RunConfigSchema,
  task_id: z.string(),
  trial: z.number().int().nonnegative(),
  /** The run's tenant, whose provider credentials (if any) its model calls use. */
  tenant: z.string().default('operator'),
});
export type EpisodeLaunch = z.infer<typeof EpisodeLaunchSchema>;
export type EpisodeLaunchInput = z.input<typeof EpisodeLaunchSchema>;

export interface EpisodeRef {
  readonly task_id: string;
  readonly trial: number;
}

/** The Durable Object name of an episode: a retried launch reaches the same object. */
export const episodeKey = (runId: string, ref: EpisodeRef): string => `${runId}/${ref.trial}/${ref.task_id}`;

/** The public id of an episode: its object name, base64url-encoded (it holds `/` and any task id). */
export const episodeIdOf = (key: string): string => base64url(new TextEncoder().encode(key));

/** The run, task and trial an episode id names, or null when it names none. */
export const episodeOfId = (id: string): ({ run_id: string; key: string } & EpisodeRef) | null => {
  let key: string;
  try {
    key = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(fromBase64url(id));
  } catch {
    return null;
  }
  const match = /^([0-9a-f-]{36})\/(\d+)\/(.+)$/s.exec(key);
  if (!match || episodeIdOf(key) !== id) return null;
  return { run_id: match[1]!, trial: Number(match[2]), task_id: match[3]!, key };
};

export const encodeLaunch = (launch: EpisodeLaunchInput): string => dumpsPy(launch as unknown as PyInput);
export const decodeLaunch = (text: string): EpisodeLaunch => EpisodeLaunchSchema.parse(parsePyJson(text));

/** The engine's spec of the episode: the run's work unit for this task and trial (same seed as a batch run). */
export const episodeSpec = (launch: EpisodeLaunch, data: DomainData): SimulationSpec => {
  const task = data.tasks.find((t) => t.id === launch.task_id);
  if (!task) throw new Error(`Task ${launch.task_id} is not in domain ${launch.config.domain}`);
  const unit = workUnits(launch.config, [task])[launch.trial];
  if (!unit) throw new Error(`Trial ${launch.trial} is beyond the run's ${launch.config.num_trials} trials`);
  return unit;
};
