// What the run page shows, computed from a run's simulations (their messages are not needed): the reference's
// metrics (avg reward, pass^k, reward breakdown), termination reasons, the infrastructure errors grouped by
// reason, each task's trials (in natural order of task id), and per-issue-type results.
import { computeMetrics, isSuccessful } from '../core/metrics/agent-metrics.ts';
import { runErrorBars } from '../core/metrics/error-bars.ts';
import type { RunErrorBars } from '../core/schemas/statistics.ts';
import type { AgentMetrics } from '../core/metrics/agent-metrics.ts';
import type { Results, SimulationRun } from '../core/schemas/simulation.ts';
import { issueTypeOf } from '../../domains/issue-types.ts';
import { infraErrorNote } from '../core/runner/grading-failure.ts';

export interface TrialCell {
  readonly simulationId: string;
  readonly trial: number;
  /** null for an infrastructure error (no reward). */
  readonly reward: number | null;
  readonly terminationReason: string;
  /** Why an infrastructure error happened; null for a scored trial. */
  readonly error: string | null;
}

export interface TaskRow {
  readonly taskId: string;
  readonly trials: readonly TrialCell[];
  readonly successes: number;
  /** Mean reward over the scored trials, null when none is scored. */
  readonly avgReward: number | null;
}

export interface GroupRow {
  readonly group: string;
  readonly tasks: number;
  readonly simulations: number;
  readonly avgReward: number;
  readonly pass1: number;
}

/** Simulations that failed for the same reason (`info.error`), which are not scored. */
export interface InfraErrorGroup {
  readonly reason: string;
  readonly simulations: readonly { readonly id: string; readonly taskId: string; readonly trial: number }[];
  /** What the reason means, when a newcomer could read it as a bug. */
  readonly note: string | null;
}

export interface RunReport {
  readonly metrics: AgentMetrics;
  /** [k, pass^k] for k = 1 … the trials every task has. */
  readonly passHatK: readonly (readonly [number, number])[];
  /** Each score's 95% CI (clustered by task), and where the variance is; null when nothing was scored. */
  readonly errorBars: RunErrorBars | null;
  readonly terminations: readonly (readonly [string, number])[];
  readonly tasks: readonly TaskRow[];
  /** The infrastructure errors by reason, the most frequent first. */
  readonly infraErrors: readonly InfraErrorGroup[];
  /** Results per issue type, for domains whose tasks have one (telecom); empty otherwise. */
  readonly issueTypes: readonly GroupRow[];
}

type RunResults = Pick<Results, 'info' | 'simulations'>;

export const rewardOf = (sim: SimulationRun): number | null =>
  isInfraError(sim) || !sim.reward_info ? null : sim.reward_info.reward.value;

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

const countBy = <T>(items: readonly T[], key: (item: T) => string): [string, number][] => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b));
};

/** Natural order of task ids: `task_2` before `task_10`. */
export const byTaskId: (a: string, b: string) => number = new Intl.Collator('en', { numeric: true }).compare;

export const isInfraError = (sim: SimulationRun): boolean => sim.termination_reason === 'infrastructure_error';

/** Why an infrastructure error happened, as the simulation records it. */
export const infraErrorReason = (sim: SimulationRun): string => {
  const error = sim.info?.['error'];
  return typeof error === 'string' && error !== '' ? error : 'no reason recorded';
};

export const infraErrorGroups = (simulations: readonly SimulationRun[]): InfraErrorGroup[] => {
  const groups = new Map<string, InfraErrorGroup['simulations'][number][]>();
  const notes = new Map<string, string>();
  for (const sim of simulations.filter(isInfraError)) {
    const reason = infraErrorReason(sim);
    groups.set(reason, [...(groups.get(reason) ?? []), { id: sim.id, taskId: sim.task_id, trial: sim.trial ?? 0 }]);
    const note = infraErrorNote(sim);
    if (note !== null && !notes.has(reason)) notes.set(reason, note);
  }
  return [...groups].map(([reason, sims]) => ({ reason, simulations: sims, note: notes.get(reason) ?? null })).sort((a, b) => b.simulations.length - a.simulations.length);
};

export const taskRows = (simulations: readonly SimulationRun[]): TaskRow[] => {
  const byTask = new Map<string, SimulationRun[]>();
  for (const sim of simulations) byTask.set(sim.task_id, [...(byTask.get(sim.task_id) ?? []), sim]);
  return [...byTask].sort(([a], [b]) => byTaskId(a, b)).map(([taskId, sims]) => {
    const trials = sims
      .map((s): TrialCell => ({ simulationId: s.id, trial: s.trial ?? 0, reward: rewardOf(s), terminationReason: s.termination_reason, error: isInfraError(s) ? infraErrorReason(s) : null }))
      .sort((a, b) => a.trial - b.trial);
    const rewards = trials.flatMap((t) => (t.reward === null ? [] : [t.reward]));
    return { taskId, trials, successes: rewards.filter(isSuccessful).length, avgReward: mean(rewards) };
  });
};

const issueTypeRows = (results: RunResults): GroupRow[] => {
  const typeOf = issueTypeOf(results.info.environment_info.domain_name);
  if (!typeOf) return [];
  const groups = new Map<string, SimulationRun[]>();
  for (const sim of results.simulations) {
    const group = typeOf(sim.task_id) ?? 'other';
    groups.set(group, [...(groups.get(group) ?? []), sim]);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, simulations]) => {
      const metrics = computeMetrics({ info: results.info, simulations });
      return { group, tasks: metrics.total_tasks, simulations: metrics.total_simulations, avgReward: metrics.avg_reward, pass1: metrics.pass_hat_ks[1] ?? 0 };
    });
};

export const passHatKSeries = (metrics: AgentMetrics): [number, number][] =>
  Object.entries(metrics.pass_hat_ks)
    .map(([k, v]): [number, number] => [Number(k), v])
    .sort(([a], [b]) => a - b);

export const runReport = (results: Results): RunReport => {
  const metrics = computeMetrics(results);
  return {
    metrics,
    passHatK: passHatKSeries(metrics),
    errorBars: runErrorBars(results.simulations),
    terminations: countBy(results.simulations, (s) => s.termination_reason),
    tasks: taskRows(results.simulations),
    infraErrors: infraErrorGroups(results.simulations),
    issueTypes: issueTypeRows(results),
  };
};
