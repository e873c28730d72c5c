// The gold run the DB check compares against: a task's initial state, then its gold actions; and the predicted
// run it is compared with, the task's initial state then the trajectory's tool calls.
import type { Environment } from '../environment/environment.ts';
import type { Message } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import { freshEnvironment } from './context.ts';
import type { EvaluationContext } from './context.ts';

export interface GoldRunOptions {
  /** Replay the initial message history strictly (see Environment.setState). */
  readonly strict?: boolean;
  readonly onReplayMismatch?: (detail: string) => void;
}

/**
 * Puts `env` in the state the task's gold actions leave it. A failing gold action is skipped (the gold DB simply
 * excludes it) and nothing is synced between actions, as in the reference.
 */
export const playGoldRun = (env: Environment, task: Task, options: GoldRunOptions = {}): void => {
  const initial = task.initial_state;
  env.setState(
    initial?.initialization_data ?? null,
    initial?.initialization_actions ?? null,
    initial?.message_history ?? [],
    options.strict,
    options.onReplayMismatch,
  );
  for (const action of task.evaluation_criteria?.actions ?? []) {
    try {
      env.makeToolCall(action.name, action.requestor, action.arguments);
    } catch {
      // skipped: the gold DB is what the other actions leave
    }
  }
};

/** The environment the trajectory left (replayed from the task's initial state) and the gold one. */
export const predictedAndGold = (
  task: Task,
  trajectory: readonly Message[],
  ctx: Pick<EvaluationContext, 'domain' | 'data' | 'solo' | 'now' | 'strictReplay' | 'onReplayMismatch' | 'onUnexpectedToolError'>,
): { readonly predicted: Environment; readonly gold: Environment } => {
  const initial = task.initial_state;
  const predicted = freshEnvironment(ctx, ctx.solo);
  predicted.setState(initial?.initialization_data ?? null, initial?.initialization_actions ?? null, trajectory, ctx.strictReplay, ctx.onReplayMismatch);
  const gold = freshEnvironment(ctx, false);
  playGoldRun(gold, task, { strict: ctx.strictReplay, onReplayMismatch: ctx.onReplayMismatch });
  return { predicted, gold };
};
