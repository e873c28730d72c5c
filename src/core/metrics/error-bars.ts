// Every score of one run with its 95% error bar, following "Adding Error Bars to Evals" (Miller, 2024): the
// average reward with a standard error clustered by task (§2.2: trials of one task are not independent), pass^k
// with the standard error of its per-task estimates, and where the variance lies (between tasks or between
// trials of one task). The reference's figures are unchanged; these sit beside them.
import type { SimulationRun } from '../schemas/simulation.ts';
import { passHatK } from './agent-metrics.ts';
import { Z_975 } from './student-t.ts';
import { mean, sampleVariance, scoredRewards, successCount, taskRewards } from './task-rewards.ts';

export interface ErrorBar {
  readonly value: number;
  /** Standard error; null when it cannot be estimated (e.g. pass^k over one task). */
  readonly se: number | null;
  /** value ∓ 1.96·se; null with se. */
  readonly ci_low: number | null;
  readonly ci_high: number | null;
}

export interface AverageRewardError extends ErrorBar {
  readonly tasks: number;
  readonly simulations: number;
  /** The trials each task has, when every task has the same number; else null. */
  readonly trials_per_task: number | null;
}

export interface PassHatKError extends ErrorBar {
  readonly k: number;
  /** Tasks with at least k trials: the ones the estimate is over. */
  readonly tasks: number;
  /** Tasks with fewer than k trials, left out. */
  readonly tasks_left_out: number;
}

export interface VarianceParts {
  /** Σ_t n_t (r̄_t − r̄)² / n: how much tasks differ from each other. */
  readonly between_task: number;
  /** Σ_t Σ_i (r_i − r̄_t)² / n: trial-to-trial noise within a task. The two parts sum to the variance of r. */
  readonly within_task: number;
  /** Tasks whose evaluated trials do not all have the same reward. */
  readonly disagreeing_tasks: number;
}

export interface RunErrorBars {
  readonly avg_reward: AverageRewardError;
  /** One entry per k from 1 to the most trials any task has. */
  readonly pass_hat_ks: readonly PassHatKError[];
  readonly variance: VarianceParts;
}

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
