// The gold run the DB check compares against: a task's initial state, then its gold actions.
import type { Environment } from '../environment/environment.ts';
import type { Task } from '../schemas/task.ts';

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
