// Where a simulation is forked to repair a user-simulator error: the earliest user turn a review blames on the
// simulator, and the step after which the episode stood just before that turn.
import type { Message } from '../schemas/message.ts';
import type { SimulationReview } from './reviewer.ts';

/**
 * The index (turn_idx) of the earliest user message the review attributes an error of the user simulator to,
 * or null when there is none. Errors the reviewer marks `minor` are left: by its own judgement they do not
 * change the outcome. An error without a turn, or whose turn is not a user message, names no repair point.
 */
export const faultyUserTurn = (outcome: SimulationReview, messages: readonly Message[]): number | null => {
  const userErrors = outcome.mode === 'user' ? outcome.review.errors : outcome.review.errors.filter((e) => e.source === 'user');
  const turns = userErrors
    .filter((e) => e.severity !== 'minor' && e.turn_idx !== null && messages[e.turn_idx]?.role === 'user')
    .map((e) => e.turn_idx!);
  return turns.length === 0 ? null : Math.min(...turns);
};

/**
 * The step count of the episode just before `messages[turn]`: one step per participant message and one per batch
 * of tool results, after what no step counts (the task's message history, the fixed greeting, a solo agent's
 * opening turn).
 */
export const stepBefore = (messages: readonly Message[], turn: number, opening: number): number => {
  let steps = 0;
  for (let i = opening; i < turn; i++) {
    const startsToolBatch = messages[i]!.role === 'tool' && messages[i - 1]?.role !== 'tool';
    if (messages[i]!.role !== 'tool' || startsToolBatch) steps += 1;
  }
  return steps;
};

/** How many leading messages no step produced: the task's message history, else the greeting (or a solo agent's opening turn). */
export const uncountedOpening = (historyLength: number): number => (historyLength > 0 ? historyLength : 1);
