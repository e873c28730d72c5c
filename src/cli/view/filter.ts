// The simulations `view` lists: all, or as the reference's view_simulations filters them — only failed ones
// (a reward below 1; no reward is not shown as failed), or only those of tasks where every trial failed.
import { isSuccessful } from '../../core/metrics/agent-metrics.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';

export interface ViewFilter {
  readonly onlyShowFailed?: boolean;
  readonly onlyShowAllFailed?: boolean;
}

/** What `view` shows of each simulation: its tool results cut after this many characters (null: whole; default 500). */
export interface ViewOptions extends ViewFilter {
  readonly maxToolResultChars?: number | null;
}

const rewardOf = (s: SimulationRun): number | null => (s.reward_info ? s.reward_info.reward.value : null);

export const filterSimulations = (simulations: readonly SimulationRun[], filter: ViewFilter): SimulationRun[] => {
  const successes = new Map<string, number>();
  for (const s of simulations) {
    const reward = rewardOf(s);
    if (reward !== null && isSuccessful(reward)) successes.set(s.task_id, (successes.get(s.task_id) ?? 0) + 1);
  }
  return simulations.filter((s) => {
    const reward = rewardOf(s);
    if (filter.onlyShowFailed && (reward === null || isSuccessful(reward))) return false;
    if (filter.onlyShowAllFailed && (successes.get(s.task_id) ?? 0) > 0) return false;
    return true;
  });
};

/** Tasks with no successful trial (the reference prints their number under --only-show-all-failed). */
export const allFailedTasks = (simulations: readonly SimulationRun[]): number =>
  new Set(filterSimulations(simulations, { onlyShowAllFailed: true }).map((s) => s.task_id)).size;
