// The average reward's anytime-valid interval, simulated: a run that stops as soon as its interval is narrow enough
// keeps 95% coverage, where stopping on the width of a fixed-sample CI does not.
import { describe, expect, it } from 'vitest';
import { meanInterval } from '../../../src/core/metrics/mean-sequence.ts';
import { PyRandom } from '../../../src/core/py/random.ts';

const RUNS = 400;
const MAX = 200;

/** Draws rewards of success rate p until `narrow` says the interval after them is narrow enough; whether it covers p. */
const coveredAtStop = (rng: PyRandom, p: number, interval: (rewards: readonly number[]) => { low: number; high: number }, width: number): boolean => {
  const rewards: number[] = [];
  for (;;) {
    rewards.push(rng.random().value < p ? 1 : 0);
    const { low, high } = interval(rewards);
    if (high - low <= width || rewards.length === MAX) return low <= p && p <= high;
  }
};

/** The fixed-sample 95% CI of the mean: what a run stopping on width must not use. */
const fixedSampleCi = (rewards: readonly number[]) => {
  const n = rewards.length;
  const m = rewards.reduce((a, b) => a + b, 0) / n;
  const se = n < 2 ? Number.POSITIVE_INFINITY : Math.sqrt(rewards.reduce((s, r) => s + (r - m) ** 2, 0) / (n - 1) / n);
  return { low: m - 1.96 * se, high: m + 1.96 * se };
};

const coverage = (interval: (rewards: readonly number[]) => { low: number; high: number }): number => {
  const rng = new PyRandom();
  rng.seed(7);
  let covered = 0;
  for (let run = 0; run < RUNS; run++) if (coveredAtStop(rng, 0.9, interval, 0.3)) covered++;
  return covered / RUNS;
};

describe('the average reward anytime-valid interval', () => {
  it('stopping as soon as it is 0.3 wide keeps 95% coverage; the fixed-sample CI stopped the same way does not', () => {
    expect(coverage((r) => meanInterval(r))).toBeGreaterThanOrEqual(0.95);
    // With a high success rate, runs of early successes give a zero-width fixed-sample CI that excludes the truth.
    expect(coverage(fixedSampleCi)).toBeLessThan(0.9);
  });

  it('is [0, 1] before any reward, narrows as rewards come, and is never 0 wide after equal rewards', () => {
    expect(meanInterval([])).toEqual({ n: 0, low: 0, high: 1 });
    const ones = (n: number) => meanInterval(Array<number>(n).fill(1));
    expect(ones(2).high - ones(2).low).toBe(1);
    expect(ones(10).high - ones(10).low).toBeLessThan(ones(8).high - ones(8).low);
    expect(ones(40).high - ones(40).low).toBeGreaterThan(0.1);
    expect(ones(40).high).toBe(1);
  });

  it('refuses a reward outside [0, 1]', () => {
    expect(() => meanInterval([0.5, 1.5])).toThrow(RangeError);
  });
});
