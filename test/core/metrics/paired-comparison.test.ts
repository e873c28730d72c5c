// Paired comparisons of two runs against scipy (scripts/stats/expected-stats.py: ttest_rel, t.ppf).
import { describe, expect, it } from 'vitest';
import { pairedComparison } from '../../../src/core/metrics/paired-comparison.ts';
import { infraError, scoredTrials } from '../../support/simulations.ts';

const A = { t1: [1, 0, 1, 1], t2: [0, 0, 0, 0], t3: [1, 1, 1, 1], t4: [0, 1, 0, 0], t5: [1, 1, 0, 1], t6: [0, 0, 1, 0], t7: [1, 1, 1, 1], t8: [0, 0, 0, 0] };
const B = { t1: [1, 1, 1, 1], t2: [1, 1, 1, 1], t3: [1, 1, 1, 1], t4: [1, 1, 0, 1], t5: [1, 1, 1, 1], t6: [0, 1, 1, 0], t7: [0, 0, 0, 0], t8: [0, 1, 0, 0], t9: [1] };
const A2 = Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`t${i}`, [1, 0, 1, 0]]));
const B2 = { t1: [1, 1, 1, 0], t2: [1, 0, 1, 1], t3: [1, 1, 0, 1], t4: [0, 1, 1, 1], t5: [1, 1, 1, 0], t6: [1, 0, 1, 0] };

describe('paired comparison', () => {
  it('difference, SE, t-based 95% CI, ttest_rel p-value and MDD on the shared tasks', () => {
    const c = pairedComparison(scoredTrials(A), scoredTrials(B));
    expect(c.shared_tasks).toBe(8);
    expect(c.difference).toBeCloseTo(0.1875, 12);
    expect(c.se).toBeCloseTo(0.19904907865721386, 12);
    expect(c.ci_low).toBeCloseTo(-0.2831762786500475, 12);
    expect(c.ci_high).toBeCloseTo(0.6581762786500476, 12);
    expect(c.p_value).toBeCloseTo(0.3775675404559561, 12);
    expect(c.mdd).toBeCloseTo(0.5576529564450559, 12);
    expect(c.resolved).toBe(false);
    expect(c.trials_needed).toBeNull();
  });

  it('swapping A and B negates the difference and keeps the p-value', () => {
    const c = pairedComparison(scoredTrials(B), scoredTrials(A));
    expect(c.difference).toBeCloseTo(-0.1875, 12);
    expect(c.ci_low).toBeCloseTo(-0.6581762786500476, 12);
    expect(c.p_value).toBeCloseTo(0.3775675404559561, 12);
    expect(c.only_a).toEqual(['t9']);
  });

  it('a steady difference is resolved, with the trials per task its size needs', () => {
    const c = pairedComparison(scoredTrials(A2), scoredTrials(B2));
    expect(c.difference).toBeCloseTo(0.20833333333333334, 12);
    expect(c.se).toBeCloseTo(0.04166666666666667, 12);
    expect(c.ci_low).toBeCloseTo(0.10122575684848689, 12);
    expect(c.ci_high).toBeCloseTo(0.3154409098181798, 12);
    expect(c.p_value).toBeCloseTo(0.004104715980053319, 12);
    expect(c.mdd).toBeCloseTo(0.1167327174213737, 12);
    expect(c.resolved).toBe(true);
    expect(c.trials_needed).toBe(19);
  });

  it('tasks that flipped, by |d_t|; tasks in one run only named and left out', () => {
    const c = pairedComparison(scoredTrials(A), scoredTrials(B));
    expect(c.improved).toEqual([{ task_id: 't2', difference: 1 }]);
    expect(c.regressed).toEqual([{ task_id: 't7', difference: -1 }]);
    expect([c.only_a, c.only_b]).toEqual([[], ['t9']]);
  });

  it('infrastructure errors do not make a task shared', () => {
    const c = pairedComparison([...scoredTrials(A), infraError('t9', 'provider down')], scoredTrials(B));
    expect(c.shared_tasks).toBe(8);
    expect(c.only_b).toEqual(['t9']);
  });

  it('fewer than two shared tasks: a difference without an error bar, never resolved', () => {
    const c = pairedComparison(scoredTrials({ t1: [0] }), scoredTrials({ t1: [1] }));
    expect(c).toMatchObject({ difference: 1, se: null, ci_low: null, p_value: null, resolved: false, mdd: null });
  });

  it('every task differs by the same amount: a zero-width CI that excludes 0, p = 0', () => {
    const c = pairedComparison(scoredTrials({ t1: [0], t2: [0], t3: [0] }), scoredTrials({ t1: [1], t2: [1], t3: [1] }));
    expect(c).toMatchObject({ difference: 1, se: 0, ci_low: 1, ci_high: 1, p_value: 0, resolved: true });
  });
});
