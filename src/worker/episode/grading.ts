// Grading a finished episode on the Worker: a task judged by a model (NL assertions) holds a slot of the run's
// provider cap while its judge answers, like every turn; other tasks grade at once.
import type { EpisodeState } from '../../core/schemas/episode.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import { completeEpisode } from '../../core/runner/simulation.ts';
import { providerGate } from '../runs/provider-gate.ts';
import { providerFor } from '../runs/models.ts';
import { isJudged } from './context.ts';
import { withForkOrigin } from './fork.ts';
import type { EpisodeContext } from './context.ts';

/** graded: the simulation; busy: no slot of the cap free now (grade again later); failed: the attempt failed. */
export type Grading =
  | { readonly kind: 'graded'; readonly simulation: SimulationRun }
  | { readonly kind: 'busy' }
  | { readonly kind: 'failed'; readonly error: unknown };

export const gradeEpisode = async (env: Env, context: EpisodeContext, state: EpisodeState): Promise<Grading> => {
  const gate = isJudged(state) ? providerGate(env, (await providerFor(env, context.launch.tenant)).endpoint) : null;
  const holder = `${context.key}#evaluation`;
  if (gate !== null && !(await gate.stub.acquire(holder, gate.cap))) return { kind: 'busy' };
  try {
    return { kind: 'graded', simulation: withForkOrigin(await completeEpisode(state, context.deps), context.launch.config.fork_of) };
  } catch (error) {
    return { kind: 'failed', error };
  } finally {
    if (gate !== null) await gate.stub.release(holder);
  }
};
