// One run's error bars against figures computed independently with numpy (scripts/stats/expected-stats.py).
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../../../src/core/metrics/agent-metrics.ts';
import { runErrorBars } from '../../../src/core/metrics/error-bars.ts';
import { infraError, scored, scoredTrials } from '../../support/simulations.ts';

const RUN = { t1: [1, 1, 1, 1], t2: [0, 1, 0, 1], t3: [0, 0, 0, 0], t4: [1, 0, 1, 1], t5: [0.5, 1, 0, 0.25] };
const UNEVEN = { t1: [1, 0, 1], t2: [0], t3: [1, 1], t4: [0, 0, 1, 1] };

describe('run error bars', () => {
  it('average reward ± 1.96·SE clustered by task, 5 tasks × 4 trials', () => {
    const bars = runErrorBars(scoredTrials(RUN))!;
    expect(bars.avg_reward.value).toBeCloseTo(0.5375, 12);
    expect(bars.avg_reward.se).toBeCloseTo(0.1495827530165159, 12);
    expect(bars.avg_reward.ci_low).toBeCloseTo(0.24432319137927866, 12);
    expect(bars.avg_reward.ci_high).toBeCloseTo(0.8306768086207212, 12);
    expect([bars.avg_reward.tasks, bars.avg_reward.simulations, bars.avg_reward.trials_per_task]).toEqual([5, 20, 4]);
  });

  it('pass^k ± 1.96·sd(ddof 1)/sqrt(T) of the per-task estimates, equal to the reference pass^k', () => {
    const sims = scoredTrials(RUN);
    const bars = runErrorBars(sims)!;
    const expected = [[0.5, 0.1767766952966369], [1 / 3, 0.19002923751652298], [0.25, 0.19364916731037082], [0.2, 0.2]];
    expect(bars.pass_hat_ks.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    bars.pass_hat_ks.forEach((p, i) => {
      expect(p.value).toBeCloseTo(expected[i]![0]!, 12);
      expect(p.se).toBeCloseTo(expected[i]![1]!, 12);
      expect(p.ci_high! - p.value).toBeCloseTo(1.959963984540054 * expected[i]![1]!, 12);
      expect(p.value).toBe(computeMetrics({ info: { num_trials: 4 }, simulations: sims }).pass_hat_ks[p.k]);
    });
  });

  it('variance split into between-task and within-task parts, and tasks whose trials disagree', () => {
    const { variance } = runErrorBars(scoredTrials(RUN))!;
    expect(variance.between_task).toBeCloseTo(0.11187499999999999, 12);
    expect(variance.within_task).toBeCloseTo(0.11484375, 12);
    expect(variance.disagreeing_tasks).toBe(3);
  });

  it('uneven trials: tasks with fewer than k trials are left out of pass^k and counted', () => {
    const bars = runErrorBars(scoredTrials(UNEVEN))!;
    expect(bars.avg_reward.value).toBeCloseTo(0.6, 12);
    expect(bars.avg_reward.se).toBeCloseTo(0.10954451150103321, 12);
    expect(bars.avg_reward.trials_per_task).toBeNull();
    expect(bars.variance.between_task).toBeCloseTo(0.07333333333333333, 12);
    expect(bars.variance.within_task).toBeCloseTo(0.16666666666666669, 12);
    const rows = bars.pass_hat_ks.map((p) => [p.k, p.tasks, p.tasks_left_out]);
    expect(rows).toEqual([[1, 4, 0], [2, 3, 1], [3, 2, 2], [4, 1, 3]]);
    expect(bars.pass_hat_ks[0]!.value).toBeCloseTo(0.5416666666666666, 12);
    expect(bars.pass_hat_ks[0]!.se).toBeCloseTo(0.20833333333333334, 12);
    expect(bars.pass_hat_ks[1]!.value).toBeCloseTo(0.5, 12);
    expect(bars.pass_hat_ks[1]!.se).toBeCloseTo(0.25458753860865785, 12);
    expect(bars.pass_hat_ks[3]).toMatchObject({ value: 0, se: null, ci_low: null, ci_high: null });
  });

  it('infrastructure errors are left out, as the metrics leave them out', () => {
    const sims = [...scoredTrials(RUN), infraError('t1', 'provider down', 4), infraError('t9', 'provider down')];
    expect(runErrorBars(sims)).toEqual(runErrorBars(scoredTrials(RUN)));
  });

  it('one trial per task: the clustered SE is the usual SE times sqrt((n − 1) / n)', () => {
    const rewards = [1, 0, 1, 1, 0, 0.5];
    const bars = runErrorBars(rewards.map((r, i) => scored(`t${i}`, r)))!;
    const m = rewards.reduce((a, b) => a + b) / rewards.length;
    const sd = Math.sqrt(rewards.reduce((s, r) => s + (r - m) ** 2, 0) / (rewards.length - 1));
    expect(bars.avg_reward.se).toBeCloseTo((sd / Math.sqrt(rewards.length)) * Math.sqrt((rewards.length - 1) / rewards.length), 12);
  });

  it('nothing evaluated: no error bars', () => {
    expect(runErrorBars([infraError('t1', 'provider down')])).toBeNull();
  });
});
