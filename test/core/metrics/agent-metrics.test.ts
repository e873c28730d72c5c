// pass^k and average reward against hand-computed cases.
import { describe, expect, it } from 'vitest';
import { comb, computeMetrics, isSuccessful, passHatK } from '../../../src/core/metrics/agent-metrics.ts';
import { pyFloat } from '../../../src/core/py/index.ts';
import type { Info, SimulationRun } from '../../../src/core/schemas/simulation.ts';

const sim = (taskId: string, reward: number | null, reason: SimulationRun['termination_reason'] = 'user_stop') =>
  ({
    task_id: taskId,
    termination_reason: reason,
    agent_cost: pyFloat(0.5),
    reward_info:
      reward === null
        ? null
        : { reward: pyFloat(reward), reward_breakdown: { DB: pyFloat(reward) }, db_check: null },
  }) as unknown as SimulationRun;

const info = (numTrials: number) => ({ num_trials: numTrials }) as Info;

describe('pass^k', () => {
  it('4 trials with successes [1,1,0,1] → 3/4, 1/2, 1/4, 0', () => {
    expect([1, 2, 3, 4].map((k) => passHatK(4, 3, k))).toEqual([0.75, 0.5, 0.25, 0]);
  });

  it('k greater than the number of successes gives 0', () => {
    expect(passHatK(5, 1, 2)).toBe(0);
  });

  it('fewer trials than k is an error', () => {
    expect(() => passHatK(2, 1, 3)).toThrow();
  });

  it('C(n, k) is exact', () => {
    expect([comb(4, 2), comb(10, 3), comb(3, 5), comb(0, 0)]).toEqual([6, 120, 0, 1]);
  });

  it('success tolerates 1e-6 around 1.0, no more', () => {
    expect(isSuccessful(1 - 1e-6)).toBe(true);
    expect(isSuccessful(1 + 1e-6)).toBe(true);
    expect(isSuccessful(1 - 2e-6)).toBe(false);
  });
});

describe('computeMetrics', () => {
  it('averages over simulations and pass^k over tasks, excluding infrastructure errors', () => {
    const m = computeMetrics({
      info: info(2),
      simulations: [
        sim('a', 1), sim('a', 1),
        sim('b', 1), sim('b', 0),
        sim('c', null, 'infrastructure_error'),
      ],
    });
    expect(m.avg_reward).toBe(0.75);
    expect(m.pass_hat_ks).toEqual({ 1: 0.75, 2: 0.5 });
    expect(m.infra_error_count).toBe(1);
    expect(m.total_simulations).toBe(4);
    expect(m.total_tasks).toBe(2);
    expect(m.reward_breakdown).toEqual({ DB: 0.75 });
  });

  it('max k drops to the smallest per-task count of non-infra simulations', () => {
    const m = computeMetrics({
      info: info(3),
      simulations: [sim('a', 1), sim('a', 1), sim('a', 1), sim('b', 1), sim('b', 0), sim('b', null, 'infrastructure_error')],
    });
    expect(Object.keys(m.pass_hat_ks)).toEqual(['1', '2']);
  });

  it('empty results → reward 0 and no pass^k', () => {
    expect(computeMetrics({ info: info(1), simulations: [] })).toMatchObject({ avg_reward: 0, pass_hat_ks: {} });
  });
});
