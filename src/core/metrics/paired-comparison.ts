// Two runs compared on the tasks both evaluated, paired by task ("Adding Error Bars to Evals", Miller 2024, §4):
// per-task mean rewards a_t and b_t, d_t = b_t − a_t; the mean difference with its 95% CI from Student's t, the
// two-sided paired t-test (scipy.stats.ttest_rel(b, a)), the minimum detectable difference at 80% power, and the
// tasks whose verdict flipped. Tasks only one run evaluated are named and left out.
import type { SimulationRun } from '../schemas/simulation.ts';
import type { ChangedTask, PairedComparison } from '../schemas/statistics.ts';
import { Z_80, Z_975, tQuantile, twoSidedP } from './student-t.ts';
import { mean, sampleVariance, scoredRewards, successCount, taskRewards } from './task-rewards.ts';

interface TaskSide {
  readonly rewards: readonly number[];
  readonly passes: number;
  readonly trials: number;
}

const sides = (simulations: readonly SimulationRun[]): Map<string, TaskSide> => {
  const out = new Map<string, TaskSide>();
  for (const [id, rewards] of taskRewards(simulations)) {
    const scored = scoredRewards(rewards);
    if (scored.length > 0) out.set(id, { rewards: scored, passes: successCount(rewards), trials: rewards.length });
  }
  return out;
};

const byTaskId = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

const byDifference = (x: ChangedTask, y: ChangedTask): number =>
  Math.abs(y.difference) - Math.abs(x.difference) || byTaskId(x.task_id, y.task_id);

/**
 * Trials per task K with var(d_t) at K trials = between + within/K small enough that (z(0.975) + z(0.8))·SE ≤ |d̄|.
 * within = mean over tasks of s²(a_t) + s²(b_t) (per-trial variances, ddof = 1); between = var(d_t) minus the
 * part the current trial counts explain.
 */
const trialsNeeded = (pairs: readonly (readonly [TaskSide, TaskSide])[], dVar: number, dBar: number): number | null => {
  if (dBar === 0 || pairs.some(([a, b]) => a.rewards.length < 2 || b.rewards.length < 2)) return null;
  const within = mean(pairs.map(([a, b]) => sampleVariance(a.rewards) + sampleVariance(b.rewards)));
  const explained = mean(pairs.map(([a, b]) => sampleVariance(a.rewards) / a.rewards.length + sampleVariance(b.rewards) / b.rewards.length));
  const between = Math.max(0, dVar - explained);
  const allowed = pairs.length * (dBar / (Z_975 + Z_80)) ** 2 - between;
  if (allowed <= 0) return null;
  return Math.max(1, Math.ceil(within / allowed));
};

export const pairedComparison = (a: readonly SimulationRun[], b: readonly SimulationRun[]): PairedComparison => {
  const [sideA, sideB] = [sides(a), sides(b)];
  const shared = [...sideA.keys()].filter((id) => sideB.has(id)).sort(byTaskId);
  const pairs = shared.map((id) => [sideA.get(id)!, sideB.get(id)!] as const);
  const diffs = pairs.map(([ta, tb]) => mean(tb.rewards) - mean(ta.rewards));
  const changed = (from: TaskSide, to: TaskSide) => to.passes === to.trials && from.passes === 0;
  const listed = (keep: (ta: TaskSide, tb: TaskSide) => boolean): ChangedTask[] =>
    shared.flatMap((id, i) => (keep(...pairs[i]!) ? [{ task_id: id, difference: diffs[i]! }] : [])).sort(byDifference);
  const base = {
    shared_tasks: shared.length,
    improved: listed((ta, tb) => changed(ta, tb)),
    regressed: listed((ta, tb) => changed(tb, ta)),
    only_a: [...sideA.keys()].filter((id) => !sideB.has(id)).sort(byTaskId),
    only_b: [...sideB.keys()].filter((id) => !sideA.has(id)).sort(byTaskId),
  };
  const dBar = diffs.length > 0 ? mean(diffs) : null;
  if (dBar === null || diffs.length < 2) {
    return { ...base, difference: dBar, se: null, ci_low: null, ci_high: null, p_value: null, resolved: false, mdd: null, trials_needed: null };
  }
  const dVar = sampleVariance(diffs);
  const se = Math.sqrt(dVar / diffs.length);
  const half = tQuantile(0.975, diffs.length - 1) * se;
  const [ciLow, ciHigh] = [dBar - half, dBar + half];
  return {
    ...base,
    difference: dBar,
    se,
    ci_low: ciLow,
    ci_high: ciHigh,
    p_value: se === 0 ? (dBar === 0 ? 1 : 0) : twoSidedP(dBar / se, diffs.length - 1),
    resolved: ciLow > 0 || ciHigh < 0,
    mdd: (Z_975 + Z_80) * se,
    trials_needed: trialsNeeded(pairs, dVar, dBar),
  };
};
