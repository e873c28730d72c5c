// Forking an episode from its record: the state a finished (or running) episode had at one of its steps, rebuilt
// from its messages by replaying the recorded participant messages and re-running their tool calls through the
// domain's environment. No model is called; a tool result that comes out differently from the recorded one
// refuses the fork, since the rebuilt databases would not be the source's.
import type { EpisodeDeps } from '../orchestrator/deps.ts';
import type { EpisodeSpec } from '../orchestrator/initialize.ts';
import type { Message, ParticipantMessage, ToolMessage } from '../schemas/message.ts';
import { sameToolContent } from '../environment/environment.ts';
import { applyParticipantMessage, startEpisode } from './machine.ts';
import type { LiveEpisode } from './machine.ts';

/** The fork's state, ready to continue: the engine waits for the turn `live.pending` (none when it is done). */
export interface Forked {
  readonly kind: 'forked';
  readonly live: LiveEpisode;
  /** How many steps the whole record holds (every `at_step` from 0 to it can be forked). */
  readonly steps: number;
}

/** `at_step` names a step the record does not reach. */
export interface ForkBeyondEpisode {
  readonly kind: 'beyond_episode';
  readonly at_step: number;
  readonly steps: number;
  readonly message: string;
}

/** Replaying step `step` did not give what the record holds (a tool result, or the episode's course). */
export interface ForkMismatch {
  readonly kind: 'replay_mismatch';
  readonly step: number;
  readonly message: string;
}

export type ForkOutcome = Forked | ForkBeyondEpisode | ForkMismatch;

const roleOfTurn = { agent: 'assistant', user: 'user' } as const;

const mismatch = (step: number, detail: string): ForkMismatch => ({ kind: 'replay_mismatch', step, message: `Replaying step ${step} differs from the record: ${detail}` });

/** The participant messages of the record after index `from`: one per step. */
const stepCount = (messages: readonly Message[], from: number): number =>
  messages.slice(from).filter((m) => m.role === 'assistant' || m.role === 'user').length;

/**
 * The episode of `spec` in the state its record `messages` had at step `atStep`.
 *
 * Steps are the participant turns an episode applies, numbered from 0 in the order it applies them (an agent's
 * message or a user's, each with the tool calls it makes and their results), as the episode object numbers the
 * turns of its attempt; the opening (the greeting, or the task's message history) is no step. The state at step K
 * is the one in which the episode waited for its step K: steps 0 … K−1 applied, with every tool result they
 * produced. So K = 0 is the opening, K = the record's number of steps its end, and a fork at K continues with a
 * new step K of its own.
 *
 * The state holds the recorded messages themselves (timestamps, costs, usage), the databases the replay produced,
 * and the counters (`step_count`, `num_errors`) and routing of that point; a fresh simulation id, clock start and
 * seed come from `spec` and `deps`, whose models are not called. Refused: a K beyond the record, and a replay
 * whose tool results (compared as the environment compares a replayed history) or course differ from it.
 */
export const forkEpisode = async (spec: EpisodeSpec, deps: EpisodeDeps, messages: readonly Message[], atStep: number): Promise<ForkOutcome> => {
  const live = await startEpisode(spec, deps);
  const opening = live.state.trajectory.length;
  const steps = stepCount(messages, opening);
  if (!Number.isInteger(atStep) || atStep < 0 || atStep > steps) {
    return { kind: 'beyond_episode', at_step: atStep, steps, message: `at_step ${atStep} is beyond the episode: it has steps 0 to ${steps}` };
  }
  if (messages.length < opening) return mismatch(0, `the record has ${messages.length} messages before its first step, the episode opens with ${opening}`);
  for (let step = 0; step < atStep; step++) {
    const at = live.state.trajectory.length;
    const recorded = messages[at];
    if (live.pending === null) return mismatch(step, 'the replayed episode ended before it');
    if (recorded === undefined || recorded.role !== roleOfTurn[live.pending]) {
      return mismatch(step, `the ${live.pending}'s turn was waited for, the record has ${recorded === undefined ? 'no message' : `a ${recorded.role} message`} at index ${at}`);
    }
    await applyParticipantMessage(live, recorded as ParticipantMessage, deps);
    // The hops after a participant message add only its tool calls' results.
    const results = live.state.trajectory.slice(at + 1) as ToolMessage[];
    for (const [i, result] of results.entries()) {
      const expected = messages[at + 1 + i];
      if (expected?.role !== 'tool' || expected.id !== result.id) {
        return mismatch(step, `tool call ${result.id} has no recorded result at index ${at + 1 + i}`);
      }
      if (result.error !== expected.error || !sameToolContent(result.content, expected.content)) {
        return mismatch(step, `tool call ${result.id} returned ${JSON.stringify(result.content)}, the record has ${JSON.stringify(expected.content)}`);
      }
    }
  }
  // The recorded messages stand for the replayed ones: the same results, with their own timestamps.
  live.state = { ...live.state, trajectory: messages.slice(0, live.state.trajectory.length) };
  return { kind: 'forked', live, steps };
};
