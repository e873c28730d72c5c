// What the test A2A agents know of a task: its gold actions, called over MCP on the first turn before telling the user.
import type { Brain } from './a2a-agents.ts';
import { loaded } from './domains.ts';

/** The agent's last words, once the task is done. */
export const FINAL = 'It is done: everything you asked for is in place.';

export interface GoldAction {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** The task's gold actions, in order. */
export const goldActions = async (domain: string, taskId: string): Promise<GoldAction[]> => {
  const task = (await loaded(domain)).data.tasks.find((t) => t.id === taskId)!;
  return (task.evaluation_criteria?.actions ?? []) as unknown as GoldAction[];
};

/** An agent that knows the task: makes its gold calls over MCP on the first turn, then tells the user. */
export const knowing =
  (actions: readonly GoldAction[]): Brain =>
  async ({ tools, turn }) => {
    if (turn > 0) return 'Is there anything else?';
    for (const action of actions) {
      const result = await tools.call(action.name, action.arguments);
      if (result.isError) throw new Error(`${action.name} failed: ${JSON.stringify(result.content)}`);
    }
    return FINAL;
  };
