// Aggregate metrics of a results file: average reward, pass^k, costs and breakdowns
// (reference: src/tau2/metrics/agent_metrics.py).
import type { Results, SimulationRun } from '../schemas/simulation.ts';

/** A reward counts as a success within 1e-6 of 1.0. */
export const isSuccessful = (reward: number): boolean => 1 - 1e-6 <= reward && reward <= 1 + 1e-6;

/** Binomial coefficient C(n, k); 0 when k > n. */
export const comb = (n: number, k: number): number => {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) result = (result * (n - i + 1)) / i;
  return Math.round(result);
};

/** The unbiased pass^k estimator of one task: C(c, k) / C(n, k) with n trials and c successes. */
export const passHatK = (n: number, c: number, k: number): number => {
  if (n < k) throw new Error(`Task has ${n} trials, fewer than k=${k}`);
  return comb(c, k) / comb(n, k);
};

export interface AgentMetrics {
  readonly avg_reward: number;
  readonly pass_hat_ks: Readonly<Record<number, number>>;
  readonly avg_agent_cost: number;
  readonly total_simulations: number;
  readonly total_tasks: number;
  readonly infra_error_count: number;
  readonly db_match_count: number;
  readonly db_mismatch_count: number;
  readonly db_not_checked: number;
  readonly termination_user_stop: number;
  readonly termination_agent_stop: number;
  readonly termination_max_steps: number;
  readonly termination_error: number;
  readonly termination_infrastructure_error: number;
  /** Mean of each reward component over the simulations whose basis includes it. */
  readonly reward_breakdown: Readonly<Record<string, number>>;
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

const rewardOf = (sim: SimulationRun): number | null => (sim.reward_info ? sim.reward_info.reward.value : null);

/** Only `info.num_trials` is read, so a run in progress can be measured before its info is complete. */
export const computeMetrics = (results: {
  readonly info: Pick<Results['info'], 'num_trials'>;
  readonly simulations: Results['simulations'];
}): AgentMetrics => {
  const infra = results.simulations.filter((s) => s.termination_reason === 'infrastructure_error');
  const sims = results.simulations.filter((s) => s.termination_reason !== 'infrastructure_error');
  const byTask = new Map<string, SimulationRun[]>();
  for (const sim of sims) byTask.set(sim.task_id, [...(byTask.get(sim.task_id) ?? []), sim]);

  const rewards = sims.map(rewardOf).filter((r): r is number => r !== null);
  let maxK = results.info.num_trials;
  for (const taskSims of byTask.values()) maxK = Math.min(maxK, taskSims.length);
  const passHatKs: Record<number, number> = {};
  if (sims.length > 0) {
    for (let k = 1; k <= maxK; k++) {
      passHatKs[k] = mean(
        [...byTask.values()].map((taskSims) => {
          const successes = taskSims.filter((s) => isSuccessful(rewardOf(s) ?? 0)).length;
          return passHatK(taskSims.length, successes, k);
        }),
      );
    }
  }

  const components = new Map<string, number[]>();
  for (const sim of sims) {
    for (const [key, value] of Object.entries(sim.reward_info?.reward_breakdown ?? {})) {
      components.set(key, [...(components.get(key) ?? []), value!.value]);
    }
  }
  const count = (reason: string): number => sims.filter((s) => s.termination_reason === reason).length;
  const costs = sims.map((s) => s.agent_cost).filter((c) => c !== null).map((c) => c.value);
  return {
    avg_reward: mean(rewards),
    pass_hat_ks: passHatKs,
    avg_agent_cost: mean(costs),
    total_simulations: sims.length,
    total_tasks: byTask.size,
    infra_error_count: infra.length,
    db_match_count: sims.filter((s) => s.reward_info?.db_check?.db_match === true).length,
    db_mismatch_count: sims.filter((s) => s.reward_info?.db_check?.db_match === false).length,
    db_not_checked: sims.filter((s) => !s.reward_info?.db_check).length,
    termination_user_stop: count('user_stop'),
    termination_agent_stop: count('agent_stop'),
    termination_max_steps: count('max_steps'),
    termination_error: count('too_many_errors') + count('agent_error') + count('user_error'),
    termination_infrastructure_error: infra.length,
    reward_breakdown: Object.fromEntries([...components].map(([k, v]) => [k, mean(v)])),
  };
};

/** The flat dict the reference prints and stores: `{avg_reward, …, pass_hat_1, pass_hat_2, …}`. */
export const metricsAsDict = (m: AgentMetrics): Record<string, number> => ({
  avg_reward: m.avg_reward,
  avg_agent_cost: m.avg_agent_cost,
  total_simulations: m.total_simulations,
  total_tasks: m.total_tasks,
  infra_error_count: m.infra_error_count,
  ...Object.fromEntries(Object.entries(m.pass_hat_ks).map(([k, v]) => [`pass_hat_${k}`, v])),
});
