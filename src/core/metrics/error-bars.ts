// Every score of one run with its 95% error bar, following "Adding Error Bars to Evals" (Miller, 2024): the
// average reward with a standard error clustered by task (§2.2: trials of one task are not independent), pass^k
// with the standard error of its per-task estimates, and where the variance lies (between tasks or between
// trials of one task). The reference's figures are unchanged; these sit beside them.
import type { Results, SimulationRun } from '../schemas/simulation.ts';
import type { AverageRewardError, PassHatKError, RunErrorBars, VarianceParts } from '../schemas/statistics.ts';
import { passHatK } from './agent-metrics.ts';
import { Z_975 } from './student-t.ts';
import { mean, sampleVariance, scoredRewards, successCount, taskRewards } from './task-rewards.ts';

type ErrorBar = Pick<AverageRewardError, 'value' | 'se' | 'ci_low' | 'ci_high'>;

const bar = (value: number, se: number | null): ErrorBar =>
  se === null || !Number.isFinite(se)
    ? { value, se: null, ci_low: null, ci_high: null }
    : { value, se, ci_low: value - Z_975 * se, ci_high: value + Z_975 * se };

/** SE = sqrt(Σ_t (Σ_{i∈t} (r_i − r̄))²) / n over the evaluated trials (Miller 2024, eq. 4). */
const averageReward = (byTask: readonly (readonly number[])[]): AverageRewardError => {
  const all = byTask.flat();
  const n = all.length;
  const overall = mean(all);
  const clusterSquares = byTask.reduce((s, rs) => s + rs.reduce((c, r) => c + (r - overall), 0) ** 2, 0);
  const counts = new Set(byTask.map((rs) => rs.length));
  return {
    ...bar(overall, Math.sqrt(clusterSquares) / n),
    tasks: byTask.length,
    simulations: n,
    trials_per_task: counts.size === 1 ? [...counts][0]! : null,
  };
};

const passHatKErrors = (tasks: readonly (readonly (number | null)[])[]): PassHatKError[] => {
  const maxTrials = Math.max(0, ...tasks.map((rs) => rs.length));
  return Array.from({ length: maxTrials }, (_, i) => {
    const k = i + 1;
    const estimates = tasks.filter((rs) => rs.length >= k).map((rs) => passHatK(rs.length, successCount(rs), k));
    const se = Math.sqrt(sampleVariance(estimates) / estimates.length);
    return { k, ...bar(mean(estimates), Number.isNaN(se) ? null : se), tasks: estimates.length, tasks_left_out: tasks.length - estimates.length };
  });
};

const varianceParts = (byTask: readonly (readonly number[])[]): VarianceParts => {
  const all = byTask.flat();
  const overall = mean(all);
  let between = 0;
  let within = 0;
  for (const rs of byTask) {
    const taskMean = mean(rs);
    between += rs.length * (taskMean - overall) ** 2;
    within += rs.reduce((s, r) => s + (r - taskMean) ** 2, 0);
  }
  return {
    between_task: between / all.length,
    within_task: within / all.length,
    disagreeing_tasks: byTask.filter((rs) => rs.some((r) => r !== rs[0])).length,
  };
};

/** The error bars of a run's simulations; null when no simulation was evaluated. */
export const runErrorBars = (simulations: readonly SimulationRun[]): RunErrorBars | null => {
  const tasks = [...taskRewards(simulations).values()];
  const scored = tasks.map(scoredRewards).filter((rs) => rs.length > 0);
  if (scored.length === 0) return null;
  return { avg_reward: averageReward(scored), pass_hat_ks: passHatKErrors(tasks), variance: varianceParts(scored) };
};

/** The results with their `error_bars` computed afresh from their simulations (left out when nothing was scored). */
export const withErrorBars = (results: Results): Results => {
  const { error_bars: _stale, ...rest } = results;
  const bars = runErrorBars(results.simulations);
  return bars === null ? rest : { ...rest, error_bars: bars };
};
