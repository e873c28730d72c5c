// Two runs side by side. The headline (each run's average reward and pass^k, and B − A) is computed on the tasks
// both runs scored, so a difference in task sets never reads as a difference in the agents; the tasks only one
// run scored are listed apart. Per task: the delta of the average reward and the successes. The paired comparison
// says whether the difference is more than noise.
import { computeMetrics } from '../core/metrics/agent-metrics.ts';
import { pairedComparison } from '../core/metrics/paired-comparison.ts';
import type { PairedComparison } from '../core/schemas/statistics.ts';
import type { Results } from '../core/schemas/simulation.ts';
import { byTaskId, passHatKSeries, taskRows } from './report.ts';
import type { TaskRow } from './report.ts';

export interface TaskDelta {
  readonly taskId: string;
  readonly a: TaskRow | null;
  readonly b: TaskRow | null;
  /** b's average reward minus a's; null unless both scored the task. */
  readonly delta: number | null;
}

export interface ComparedSide {
  /** Over the shared tasks; null when there is none. */
  readonly avgReward: number | null;
  readonly passHatK: readonly (readonly [number, number])[];
  /** The tasks this run scored, shared or not. */
  readonly scoredTasks: number;
}

export interface RunComparison {
  readonly a: ComparedSide;
  readonly b: ComparedSide;
  /** Task ids both runs scored, in natural order: what the headline is computed on. */
  readonly shared: readonly string[];
  /** Task ids only A (only B) scored. */
  readonly onlyA: readonly string[];
  readonly onlyB: readonly string[];
  /** Every task of either run, in natural order of task id. */
  readonly tasks: readonly TaskDelta[];
  /** The paired difference on the shared tasks: its 95% CI, p-value, whether it is resolved, the flipped tasks. */
  readonly paired: PairedComparison;
}

const scored = (rows: ReadonlyMap<string, TaskRow>): Set<string> =>
  new Set([...rows].filter(([, row]) => row.avgReward !== null).map(([id]) => id));

/** What a comparison reads of a run's results. */
type ComparedResults = Pick<Results, 'simulations'> & { readonly info: Pick<Results['info'], 'num_trials'> };

const side = (results: ComparedResults, shared: ReadonlySet<string>, scoredTasks: number): ComparedSide => {
  if (shared.size === 0) return { avgReward: null, passHatK: [], scoredTasks };
  const metrics = computeMetrics({ ...results, simulations: results.simulations.filter((s) => shared.has(s.task_id)) });
  return { avgReward: metrics.avg_reward, passHatK: passHatKSeries(metrics), scoredTasks };
};

export const compareRuns = (a: ComparedResults, b: ComparedResults): RunComparison => {
  const rowsA = new Map(taskRows(a.simulations).map((r) => [r.taskId, r]));
  const rowsB = new Map(taskRows(b.simulations).map((r) => [r.taskId, r]));
  const [scoredA, scoredB] = [scored(rowsA), scored(rowsB)];
  const shared = new Set([...scoredA].filter((id) => scoredB.has(id)));
  const ids = [...new Set([...rowsA.keys(), ...rowsB.keys()])].sort(byTaskId);
  return {
    a: side(a, shared, scoredA.size),
    b: side(b, shared, scoredB.size),
    shared: [...shared].sort(byTaskId),
    onlyA: [...scoredA].filter((id) => !shared.has(id)).sort(byTaskId),
    onlyB: [...scoredB].filter((id) => !shared.has(id)).sort(byTaskId),
    tasks: ids.map((taskId) => {
      const ra = rowsA.get(taskId) ?? null;
      const rb = rowsB.get(taskId) ?? null;
      const delta = ra?.avgReward != null && rb?.avgReward != null ? rb.avgReward - ra.avgReward : null;
      return { taskId, a: ra, b: rb, delta };
    }),
    paired: pairedComparison(a.simulations, b.simulations),
  };
};
