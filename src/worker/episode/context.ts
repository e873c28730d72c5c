// What an episode object decodes and builds once per instance (rebuilt only after eviction): its launch, its
// object name, the engine's spec and dependencies; and who plays the episode's participants.
import type { EpisodeState } from '../../core/schemas/episode.ts';
import { isExternalAgent } from '../../core/schemas/episode.ts';
import type { TurnRole } from '../../core/orchestrator/step.ts';
import type { SimulationDeps, SimulationSpec } from '../../core/runner/simulation.ts';
import { decodeLaunch, episodeKey, episodeSpec } from './launch.ts';
import type { EpisodeLaunch } from './launch.ts';
import { episodeDeps } from './deps.ts';

export interface EpisodeContext {
  readonly launch: EpisodeLaunch;
  readonly key: string;
  readonly spec: SimulationSpec;
  readonly deps: SimulationDeps;
}

export const episodeContext = async (env: Env, launchText: string): Promise<EpisodeContext> => {
  const launch = decodeLaunch(launchText);
  const deps = await episodeDeps(env, launch.config, launch.tenant, launch.run_id);
  return { launch, key: episodeKey(launch.run_id, launch), spec: episodeSpec(launch, deps.data), deps };
};

/** The role a client outside the run plays (its turns are never produced by the episode), or null. */
export const externalRole = (context: EpisodeContext): TurnRole | null => {
  const { config } = context.launch;
  return isExternalAgent(config.agent) ? 'agent' : config.user === 'external_user' ? 'user' : null;
};

/** Only a task graded on NL assertions calls the provider (the judge) while evaluating. */
export const isJudged = (state: EpisodeState): boolean => state.task.evaluation_criteria?.reward_basis.includes('NL_ASSERTION') ?? false;
