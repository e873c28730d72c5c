// Waiting for an episode on the caller's behalf: until it waits for the caller's participant again or is graded
// (bounded by LIMIT_EPISODE_WAIT_SECONDS). The episode's object tells the caller when its state changes; what is
// not the object's to tell (its simulation reaching D1 through its run, an object reset mid-wait) is read again
// after a growing pause.
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import { defaultSleep } from '../../core/llm/retry.ts';
import type { ExternalObservation } from '../../core/episode/turn.ts';
import { findEpisodeSimulation } from '../db/simulations.ts';
import { limits } from '../tenancy/limits.ts';
import type { EpisodeHandle } from './handle.ts';

/** How long a request waits for the episode to need the caller again (the user's reply, the grading). */
export const waitMs = (env: Env): number => limits(env).LIMIT_EPISODE_WAIT_SECONDS * 1000;

/** A call that met the episode's instance as it reset itself (it had just finished) is made again. */
export const retriedOnReset = (error: unknown): undefined => {
  if (error instanceof Error && (error as { durableObjectReset?: boolean }).durableObjectReset === true) return undefined;
  throw error;
};

/** Pauses between two reads that were not told of a change: FIRST_PAUSE_MS, doubling up to 200 ms. */
const FIRST_PAUSE_MS = 5;
const nextPause = (pause: number): number => Math.min(pause * 2, 200);

export type Settled =
  | { readonly kind: 'live'; readonly view: ExternalObservation }
  | { readonly kind: 'graded'; readonly simulation: SimulationRun }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'not_ready' };

/**
 * Waits (bounded) until the episode waits for the caller, or is graded; past the wait, a running episode is
 * answered as it stands, one that cannot be observed (not started yet, or graded but its simulation not yet in
 * D1) as not ready. A stub is taken per call: a finished episode resets its instance.
 */
export const settle = async (env: Env, episode: EpisodeHandle, since: number, withGiven = false): Promise<Settled> => {
  const deadline = Date.now() + waitMs(env);
  for (let pause = FIRST_PAUSE_MS; ; pause = nextPause(pause)) {
    // A wait cut short (its instance reset or evicted) falls back to one read, through a stub of its own.
    const view = await env.EPISODE.getByName(episode.key)
      .awaitTurn(since, withGiven, deadline - Date.now())
      .catch(() => env.EPISODE.getByName(episode.key).observe(since, withGiven))
      .catch(retriedOnReset);
    if (view !== undefined && view !== null && (view.waiting || Date.now() > deadline)) return { kind: 'live', view };
    if (view === null) {
      const simulation = await findEpisodeSimulation(env.DB, episode.run_id, episode.task_id, episode.trial);
      if (simulation !== null) return { kind: 'graded', simulation };
      if ((await env.EPISODE.getByName(episode.key).snapshot().catch(retriedOnReset))?.phase === 'cancelled') return { kind: 'cancelled' };
    }
    if (Date.now() > deadline) return { kind: 'not_ready' };
    await defaultSleep(pause);
  }
};

/**
 * The simulation of an episode that refused a turn as no longer running, or null (never started, or
 * cancelled). A finished episode's simulation is on its way to its run, then with the run until its next write
 * to D1, so it is waited for (bounded: then not ready).
 */
export const gradedSimulation = async (env: Env, episode: EpisodeHandle): Promise<SimulationRun | null | 'not_ready'> => {
  const deadline = Date.now() + waitMs(env);
  for (let pause = FIRST_PAUSE_MS; ; pause = nextPause(pause)) {
    const simulation = await findEpisodeSimulation(env.DB, episode.run_id, episode.task_id, episode.trial);
    if (simulation !== null) return simulation;
    const phase = (await env.EPISODE.getByName(episode.key).snapshot().catch(retriedOnReset))?.phase;
    if (phase === null || phase === 'cancelled') return null;
    if (Date.now() > deadline) return 'not_ready';
    await defaultSleep(pause);
  }
};
