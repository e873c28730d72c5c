// When a run adding rounds stops, and why: a precision target or a comparison with run A, bounded by max trials.
import { describe, expect, it } from 'vitest';
import { roundsVerdict } from '../../../src/core/runner/rounds.ts';
import { infraError, scoredTrials } from '../../support/simulations.ts';

const trials = (n: number, reward: number) => Array<number>(n).fill(reward);

describe('rounds verdict', () => {
  it('a precision target stops when the interval is that narrow, else at max trials', () => {
    const sims = scoredTrials({ t1: trials(5, 1), t2: trials(5, 1) });
    expect(roundsVerdict({ kind: 'ci_width', width: 0.8, maxTrials: 20 }, sims, 5)).toMatchObject({ stop: 'ci_width_reached' });
    expect(roundsVerdict({ kind: 'ci_width', width: 0.1, maxTrials: 20 }, sims, 5)).toMatchObject({ stop: null });
    expect(roundsVerdict({ kind: 'ci_width', width: 0.1, maxTrials: 5 }, sims, 5).stop).toBe('max_trials');
  });

  it('infrastructure errors do not count as rewards', () => {
    const sims = [...scoredTrials({ t1: trials(3, 1) }), infraError('t2', 'HTTP 500', 0), infraError('t2', 'HTTP 500', 1)];
    expect(roundsVerdict({ kind: 'ci_width', width: 0.5, maxTrials: 20 }, sims, 3).detail).toMatch(/interval \[0\.\d+, 1\.0000\]/);
    expect(roundsVerdict({ kind: 'ci_width', width: 0.5, maxTrials: 20 }, sims, 3).detail).toContain('1.0000 wide');
  });

  it('a comparison pairs each trial of B with the trial of A of the same index, each used once', () => {
    const baseline = scoredTrials({ t1: trials(3, 0), t2: trials(3, 0) });
    // B ran 2 trials: 4 pairs, all +1, not yet enough evidence.
    const early = roundsVerdict({ kind: 'resolved', baseline, maxTrials: 10 }, scoredTrials({ t1: trials(2, 1), t2: trials(2, 1) }), 2);
    expect(early).toEqual({ stop: null, detail: 'after 2 trial(s) per task, 4 paired trial(s), mean difference B − A +1.0000: not resolved yet' });
    // B's trial 3 has no trial of A to pair with: the run stops at A's trials.
    const out = roundsVerdict({ kind: 'resolved', baseline, maxTrials: 10 }, scoredTrials({ t1: trials(3, 1), t2: trials(3, 1) }), 3);
    expect(out.stop).toBe('baseline_trials');
    expect(out.detail).toContain('6 paired trial(s)');
  });

  it('a clear difference resolves in its direction; no difference runs to max trials', () => {
    const baseline = scoredTrials({ t1: trials(20, 1), t2: trials(20, 1) });
    const worse = roundsVerdict({ kind: 'resolved', baseline, maxTrials: 20 }, scoredTrials({ t1: trials(8, 0), t2: trials(8, 0) }), 8);
    expect(worse.stop).toBe('resolved');
    expect(worse.detail).toContain('A is better');
    const same = roundsVerdict({ kind: 'resolved', baseline, maxTrials: 8 }, scoredTrials({ t1: trials(8, 1), t2: trials(8, 1) }), 8);
    expect(same.stop).toBe('max_trials');
  });
});
