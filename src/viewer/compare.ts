// Two runs side by side: per-task deltas of the average reward and of the successes, and each run's pass^k.
import { computeMetrics } from '../core/metrics/agent-metrics.ts';
import type { Results } from '../core/schemas/simulation.ts';
import { passHatKSeries, taskRows } from './report.ts';
import type { TaskRow } from './report.ts';

export interface TaskDelta {
  readonly taskId: string;
  readonly a: TaskRow | null;
  readonly b: TaskRow | null;
  /** b's average reward minus a's; null unless both scored the task. */
  readonly delta: number | null;
}

export interface RunComparison {
  readonly a: { readonly avgReward: number; readonly passHatK: readonly (readonly [number, number])[] };
  readonly b: { readonly avgReward: number; readonly passHatK: readonly (readonly [number, number])[] };
  /** Every task of either run, a's order first, then b's own. */
  readonly tasks: readonly TaskDelta[];
}

const side = (results: Results) => {
  const metrics = computeMetrics(results);
  return { avgReward: metrics.avg_reward, passHatK: passHatKSeries(metrics) };
};

export const compareRuns = (a: Results, b: Results): RunComparison => {
  const rowsA = new Map(taskRows(a.simulations).map((r) => [r.taskId, r]));
  const rowsB = new Map(taskRows(b.simulations).map((r) => [r.taskId, r]));
  const ids = [...new Set([...rowsA.keys(), ...rowsB.keys()])];
  return {
    a: side(a),
    b: side(b),
    tasks: ids.map((taskId) => {
      const ra = rowsA.get(taskId) ?? null;
      const rb = rowsB.get(taskId) ?? null;
      const delta = ra?.avgReward != null && rb?.avgReward != null ? rb.avgReward - ra.avgReward : null;
      return { taskId, a: ra, b: rb, delta };
    }),
  };
};
