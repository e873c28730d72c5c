// Where a simulation is forked to repair a user-simulator error: the earliest user turn a review blames on the
// simulator, and the step at which the episode waited for that turn (see episode/fork.ts).
import type { Message } from '../schemas/message.ts';
import type { SimulationReview } from './reviewer.ts';
import { statedUserErrors } from './review-response.ts';
import type { StatedUserError } from './review-response.ts';

/** The user errors a review states: a user-only review's as its answer gives them (see statedUserErrors), a full review's user-sourced ones. */
const userErrorsOf = (outcome: SimulationReview): readonly StatedUserError[] => {
  if (outcome.mode === 'full') return outcome.review.errors.filter((e) => e.source === 'user');
  return outcome.answer === undefined ? outcome.review.errors : statedUserErrors(outcome.answer);
};

/**
 * The index (turn_idx) of the earliest user message the review attributes an error of the user simulator to,
 * or null when there is none. Errors the reviewer marks `minor` are left: by its own judgement they do not
 * change the outcome. An error without a turn, or whose turn is not a user message, names no repair point.
 */
export const faultyUserTurn = (outcome: SimulationReview, messages: readonly Message[]): number | null => {
  const turns = userErrorsOf(outcome)
    .filter((e) => e.severity !== 'minor' && e.turn_idx !== null && messages[e.turn_idx]?.role === 'user')
    .map((e) => e.turn_idx!);
  return turns.length === 0 ? null : Math.min(...turns);
};

/**
 * The step at which the episode waited for `messages[turn]`, as forkEpisode numbers steps: the participant
 * messages (agent's or user's, each with its tool calls' results) after the opening, which is no step.
 */
export const stepBefore = (messages: readonly Message[], turn: number, opening: number): number =>
  messages.slice(opening, turn).filter((m) => m.role === 'assistant' || m.role === 'user').length;

/** How many leading messages are the opening: the task's message history, else the greeting (none for a solo agent). */
export const uncountedOpening = (historyLength: number, solo: boolean): number => (historyLength > 0 ? historyLength : solo ? 0 : 1);
