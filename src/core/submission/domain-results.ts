// A domain's leaderboard figures from its results file: pass^1..4 as percentages and the average agent cost
// (reference: get_metrics in src/tau2/scripts/leaderboard/prepare_submission.py, over compute_metrics). The
// means follow pandas exactly (tasks sorted by id, then by number of gold actions; numpy's pairwise sum),
// because validation compares the submitted numbers with `!=`.
import { isSuccessful, passHatK } from '../metrics/agent-metrics.ts';
import { pandasMean } from '../py/numpy-sum.ts';
import { pyFloat } from '../py/index.ts';
import type { Results, SimulationRun } from '../schemas/simulation.ts';
import type { Task } from '../schemas/task.ts';
import type { DomainResults } from './submission.ts';

/** Gold actions of a task, the reference's `task_num_actions` (-1 for a task whose only action is a transfer). */
const numActions = (task: Task | undefined): number => {
  const actions = task?.evaluation_criteria?.actions ?? null;
  if (actions === null) return 0;
  if (actions.length === 1 && actions[0]!.name.toLowerCase().includes('transfer')) return -1;
  return actions.length;
};

/** pass^k of each k the trials allow, averaged over tasks in the reference's order. */
const passHatKs = (results: Results, sims: readonly SimulationRun[]): Map<number, number> => {
  const byTask = new Map<string, SimulationRun[]>();
  for (const sim of sims) byTask.set(sim.task_id, [...(byTask.get(sim.task_id) ?? []), sim]);
  const tasks = new Map(results.tasks.map((t) => [t.id, t]));
  const order = [...byTask.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((id) => ({ id, actions: numActions(tasks.get(id)) }))
    .sort((a, b) => a.actions - b.actions);
  const maxK = Math.min(results.info.num_trials, ...[...byTask.values()].map((s) => s.length));
  const means = new Map<number, number>();
  for (let k = 1; k <= maxK; k++) {
    const perTask = order.map(({ id }) => {
      const taskSims = byTask.get(id)!;
      const successes = taskSims.filter((s) => isSuccessful(s.reward_info?.reward.value ?? Number.NaN)).length;
      return passHatK(taskSims.length, successes, k);
    });
    means.set(k, pandasMean(perTask));
  }
  return means;
};

/** The leaderboard figures of one results file (infrastructure errors left out, as in the metrics). */
export const domainResults = (results: Results): DomainResults => {
  const sims = results.simulations.filter((s) => s.termination_reason !== 'infrastructure_error');
  // With nothing evaluated the reference reports no pass^k and a cost of 0.0.
  const pass = sims.length === 0 ? new Map<number, number>() : passHatKs(results, sims);
  const cost = sims.length === 0 ? 0 : pandasMean(sims.map((s) => s.agent_cost?.value ?? null));
  const percent = (k: number) => {
    const value = pass.get(k);
    return value === undefined ? undefined : pyFloat(value * 100);
  };
  const domain = results.info.environment_info.domain_name;
  return {
    pass_1: percent(1),
    pass_2: percent(2),
    pass_3: percent(3),
    pass_4: percent(4),
    cost: Number.isNaN(cost) ? undefined : pyFloat(cost),
    retrieval_config: domain === 'banking_knowledge' ? (results.info.retrieval_config ?? undefined) : undefined,
  };
};
