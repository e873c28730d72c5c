// Action evaluator: every gold action must match some tool call of the trajectory
// (reference: src/tau2/evaluator/evaluator_action.py, Action.compare_with_tool_call).
import { pyEquals, pyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { Message, ToolCall } from '../schemas/message.ts';
import type { Action, Task } from '../schemas/task.ts';
import type { ActionCheck, RewardInfo, ToolType } from '../schemas/simulation.ts';
import { rewardInfo } from './reward-info.ts';

const pick = (args: Readonly<Record<string, PyValue>>, keys: ReadonlySet<string>): Record<string, PyValue> =>
  Object.fromEntries(Object.entries(args).filter(([k]) => keys.has(k)));

/** Compares only `compare_args`, or else the keys of the predicted call (taken from both sides). */
export const actionMatchesCall = (action: Action, call: ToolCall): boolean => {
  if (action.name !== call.name) return false;
  const keys = new Set(action.compare_args ?? Object.keys(call.arguments));
  if (keys.size === 0) return true;
  return pyEquals(pick(call.arguments, keys), pick(action.arguments, keys));
};

export const evaluateActions = (
  task: Task,
  trajectory: readonly Message[],
  toolTypes: Readonly<Record<string, ToolType>>,
): RewardInfo => {
  const actions = task.evaluation_criteria?.actions ?? [];
  if (actions.length === 0) {
    return rewardInfo(1, { info: { note: 'No actions to evaluate' }, reward_breakdown: { ACTION: 1 } });
  }
  const calls = trajectory.flatMap((m) => ((m.role === 'assistant' || m.role === 'user') && m.tool_calls) || []);
  const checks: ActionCheck[] = actions.map((action) => {
    const match = calls.some((call) => actionMatchesCall(action, call));
    return {
      action,
      action_match: match,
      action_reward: pyFloat(match ? 1 : 0),
      tool_type: Object.hasOwn(toolTypes, action.name) ? toolTypes[action.name]! : null,
    };
  });
  const reward = checks.every((c) => c.action_match) ? 1 : 0;
  return rewardInfo(reward, { action_checks: checks, reward_breakdown: { ACTION: reward } });
};
