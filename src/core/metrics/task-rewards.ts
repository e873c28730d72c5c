// Each task's trials of a run, as the metrics count them: simulations that ended in an infrastructure error are
// left out; a simulation without a reward (not evaluated) is kept as `null`.
import type { SimulationRun } from '../schemas/simulation.ts';
import { isSuccessful } from './agent-metrics.ts';

export type TaskRewards = ReadonlyMap<string, readonly (number | null)[]>;

export const taskRewards = (simulations: readonly SimulationRun[]): TaskRewards => {
  const byTask = new Map<string, (number | null)[]>();
  for (const sim of simulations) {
    if (sim.termination_reason === 'infrastructure_error') continue;
    const rewards = byTask.get(sim.task_id) ?? [];
    rewards.push(sim.reward_info ? sim.reward_info.reward.value : null);
    byTask.set(sim.task_id, rewards);
  }
  return byTask;
};

/** The rewards that count toward the average reward (evaluated trials only). */
export const scoredRewards = (rewards: readonly (number | null)[]): number[] => rewards.filter((r): r is number => r !== null);

/** Trials that succeeded; an unevaluated trial counts as a failure, as in pass^k. */
export const successCount = (rewards: readonly (number | null)[]): number => rewards.filter((r) => isSuccessful(r ?? 0)).length;

export const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** Sample variance (ddof = 1); NaN with fewer than two values. */
export const sampleVariance = (values: readonly number[]): number => {
  if (values.length < 2) return Number.NaN;
  const m = mean(values);
  return values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1);
};
