// The anytime-valid stopping rule, simulated: comparisons stopped as soon as the betting test resolves them keep
// false verdicts under 5%, and a large difference resolves long before the trial budget is spent.
import { describe, expect, it } from 'vitest';
import { observeDifference, resolvedDirection, startDifferenceSequence } from '../../../src/core/metrics/confidence-sequence.ts';
import type { DifferenceSequence } from '../../../src/core/metrics/confidence-sequence.ts';
import { PyRandom } from '../../../src/core/py/random.ts';

const TASKS = 20;
const MAX_TRIALS = 30;

type Direction = 'b_better' | 'a_better' | null;

/** Rounds of one trial per task for each agent; stops at the first round after which `decide` resolves. */
const simulate = (
  rng: PyRandom,
  rateA: (task: number) => number,
  rateB: (task: number) => number,
  decide: (differences: readonly number[], state: DifferenceSequence) => Direction = (_, state) => resolvedDirection(state),
) => {
  const draw = (p: number): number => (rng.random().value < p ? 1 : 0);
  let state: DifferenceSequence = startDifferenceSequence(0.05);
  const differences: number[] = [];
  for (let round = 1; round <= MAX_TRIALS; round++) {
    for (let task = 0; task < TASKS; task++) {
      const d = draw(rateB(task)) - draw(rateA(task));
      differences.push(d);
      state = observeDifference(state, d);
    }
    const direction = decide(differences, state);
    if (direction !== null) return { direction, rounds: round };
  }
  return { direction: null, rounds: MAX_TRIALS };
};

/** The fixed-sample 95% CI of the mean difference, looked at after every round: what the rule must not be. */
const naiveCi = (differences: readonly number[]): Direction => {
  const n = differences.length;
  const m = differences.reduce((a, b) => a + b, 0) / n;
  const se = Math.sqrt(differences.reduce((s, d) => s + (d - m) ** 2, 0) / (n - 1) / n);
  return m - 1.96 * se > 0 ? 'b_better' : m + 1.96 * se < 0 ? 'a_better' : null;
};

const identicalAgents = (seed: number, decide?: Parameters<typeof simulate>[3]): number => {
  const rng = new PyRandom(seed);
  const rates = Array.from({ length: TASKS }, () => rng.random().value);
  let declared = 0;
  for (let i = 0; i < 1000; i++) if (simulate(rng, (t) => rates[t]!, (t) => rates[t]!, decide).direction !== null) declared++;
  return declared / 1000;
};

describe('betting confidence sequence for a paired difference', () => {
  it('1,000 comparisons of identical agents, checked after every round: at most 5% declared different', () => {
    expect(identicalAgents(2024)).toBeLessThanOrEqual(0.05);
  });

  it('the same comparisons stopped on a fixed-sample CI declare a difference far more often than 5%', () => {
    expect(identicalAgents(2024, naiveCi)).toBeGreaterThan(0.1);
  });

  it('clearly different agents (0.3 vs 0.8) resolve in far fewer rounds than the budget, in the right direction', () => {
    const rng = new PyRandom(7);
    const outcomes = Array.from({ length: 200 }, () => simulate(rng, () => 0.3, () => 0.8));
    expect(outcomes.every((o) => o.direction === 'b_better')).toBe(true);
    expect(Math.max(...outcomes.map((o) => o.rounds))).toBeLessThanOrEqual(MAX_TRIALS / 5);
  });

  it('A better than B resolves the other way', () => {
    expect(simulate(new PyRandom(3), () => 0.8, () => 0.3).direction).toBe('a_better');
  });

  it('refuses a difference outside [-1, 1]', () => {
    expect(() => observeDifference(startDifferenceSequence(), 1.5)).toThrow(RangeError);
    expect(() => observeDifference(startDifferenceSequence(), Number.NaN)).toThrow(RangeError);
  });

  it('the state is plain JSON, so a run can keep it between rounds', () => {
    const state = [1, -1, 0, 1].reduce(observeDifference, startDifferenceSequence());
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
