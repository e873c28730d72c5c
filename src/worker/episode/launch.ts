// What starts an episode: its run, the run's configuration and which task × trial it plays.
import { z } from 'zod';
import { RunConfigSchema } from '../../core/schemas/run-config.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { parsePyJson } from '../../core/py/index.ts';
import { decodeConfig, encodeConfig } from '../db/runs.ts';
import type { DomainData } from '../../core/environment/domain.ts';
import { workUnit } from '../../core/runner/batch.ts';
import { trialSeeds } from '../../core/runner/seeds.ts';
import type { SimulationSpec } from '../../core/runner/simulation.ts';
import type { EpisodeRef } from '../../core/episode/run-episode.ts';
import { base64url, fromBase64url } from '../crypto.ts';

/**
 * A launch as the run object sends it: the episode's run, task, trial and tenant (whose provider credentials,
 * if any, its model calls use), and the run's configuration as the run's own text, so every episode of a run
 * decodes the same text (see `runConfigOf`).
 */
export const EpisodeLaunchTextSchema = z.object({
  run_id: z.string(),
  config: z.string(),
  task_id: z.string(),
  trial: z.number().int().nonnegative(),
  tenant: z.string(),
});
export type EpisodeLaunchText = z.infer<typeof EpisodeLaunchTextSchema>;

export type EpisodeLaunch = Omit<EpisodeLaunchText, 'config'> & { readonly config: RunConfig };

export type { EpisodeRef };

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

export const encodeLaunch = (launch: EpisodeLaunchText): string => JSON.stringify(launch);

/** Configurations decoded in this isolate, by text: a run's episodes share one, parsed once (read-only). */
const decodedConfigs = new Map<string, RunConfig>();
const DECODED_CONFIGS_KEPT = 32;

const runConfigOf = (text: string): RunConfig => {
  let config = decodedConfigs.get(text);
  if (config === undefined) {
    config = decodeConfig(text);
    if (decodedConfigs.size >= DECODED_CONFIGS_KEPT) decodedConfigs.delete(decodedConfigs.keys().next().value!);
    decodedConfigs.set(text, config);
  }
  return config;
};

export const decodeLaunch = (text: string): EpisodeLaunch => {
  const { config, ...episode } = EpisodeLaunchTextSchema.parse(JSON.parse(text));
  return { ...episode, config: runConfigOf(config) };
};

/**
 * A launch as episodes stored it before the configuration travelled as the run's text: Python-JSON with the
 * configuration as an object, the tenant defaulting to the operator.
 */
const LegacyLaunchSchema = EpisodeLaunchTextSchema.extend({ config: RunConfigSchema, tenant: z.string().default('operator') });

/** The current launch text of a launch in the previous layout (the configuration as the run stores its text). */
export const launchFromLegacy = (text: string): string => {
  const { config, ...episode } = LegacyLaunchSchema.parse(parsePyJson(text));
  return encodeLaunch({ ...episode, config: encodeConfig(config) });
};

/**
 * The trial seeds of a decoded configuration (shared by a run's episodes, see runConfigOf): drawing them takes
 * a draw per trial, so an isolate draws them once per run rather than once per episode.
 */
const seedsByConfig = new WeakMap<RunConfig, readonly number[]>();

const trialSeedsOf = (config: RunConfig): readonly number[] => {
  let seeds = seedsByConfig.get(config);
  if (seeds === undefined) {
    seeds = trialSeeds(config.seed, config.num_trials);
    seedsByConfig.set(config, seeds);
  }
  return seeds;
};

/** The engine's spec of the episode: the run's work unit for this task and trial (same seed as a batch run). */
export const episodeSpec = (launch: EpisodeLaunch, data: DomainData): SimulationSpec => {
  const task = data.tasks.find((t) => t.id === launch.task_id);
  if (!task) throw new Error(`Task ${launch.task_id} is not in domain ${launch.config.domain}`);
  const seed = trialSeedsOf(launch.config)[launch.trial];
  if (seed === undefined) throw new Error(`Trial ${launch.trial} is beyond the run's ${launch.config.num_trials} trials`);
  return workUnit(launch.config, task, launch.trial, seed);
};
