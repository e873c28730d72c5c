// The progress display's pure parts: counts, average reward, ETA and the lines drawn from them.
import { describe, expect, it } from 'vitest';
import { addSimulation, etaSeconds, formatDuration, progressLine, simulationLine, startProgress } from '../../src/cli/run/progress.ts';
import type { FinishedSimulation } from '../../src/cli/run/progress.ts';
import { progressDisplay } from '../../src/cli/run/progress-display.ts';

const sim = (reward: number | null, termination_reason: FinishedSimulation['termination_reason'] = 'user_stop'): FinishedSimulation => ({
  task_id: 't1',
  trial: 0,
  termination_reason,
  reward,
});

describe('progress', () => {
  it('before any simulation finishes: 0/N, no average, no ETA', () => {
    expect(progressLine(startProgress(40, 0), 5_000, 10)).toBe('[..........] 0/40 · avg reward - · 0 infra errors · 5s elapsed · ETA -');
  });

  it('averages the rewards of scored simulations only and counts infrastructure errors apart', () => {
    let p = startProgress(4, 0);
    p = addSimulation(p, sim(1));
    p = addSimulation(p, sim(0));
    p = addSimulation(p, sim(null, 'infrastructure_error'));
    expect(p).toMatchObject({ done: 3, infraErrors: 1, rewarded: 2, rewardSum: 1 });
    expect(progressLine(p, 30_000, 8)).toBe('[######..] 3/4 · avg reward 0.500 · 1 infra error · 30s elapsed · ETA 10s');
  });

  it('ETA extrapolates the pace so far and is 0 when done', () => {
    const p = addSimulation(startProgress(5, 1_000), sim(1));
    expect(etaSeconds(p, 11_000)).toBe(40);
    const done = [1, 1, 1, 1].reduce((acc) => addSimulation(acc, sim(1)), p);
    expect(etaSeconds(done, 60_000)).toBe(0);
    expect(progressLine(done, 61_000, 4)).toContain('[####] 5/5');
  });

  it('durations read as seconds, minutes or hours', () => {
    expect([formatDuration(0), formatDuration(59.4), formatDuration(75), formatDuration(3_600 + 120)]).toEqual(['0s', '59s', '1m15s', '1h02m']);
  });

  it('a plain line per simulation names the task, trial, termination, reward and ETA', () => {
    const p = addSimulation(startProgress(2, 0), sim(1));
    expect(simulationLine(sim(1), p, 4_000)).toBe('[1/2] task t1 trial 0: user_stop, reward 1.0 (ETA 4s)');
    expect(simulationLine(sim(null, 'infrastructure_error'), p, 4_000)).toContain('infrastructure_error, reward -');
  });

});

describe('progress display', () => {
  it('on a pipe: one line per simulation, each simulation counted once', () => {
    const written: string[] = [];
    const display = progressDisplay(2, { isTTY: false, columns: 80, write: (t) => void written.push(t) }, () => 0);
    display.simulation('a', sim(1));
    display.simulation('a', sim(1));
    display.note('event stream lost; reconnecting');
    display.simulation('b', sim(0));
    display.end();
    expect(written).toEqual([
      '[1/2] task t1 trial 0: user_stop, reward 1.0 (ETA 0s)\n',
      'event stream lost; reconnecting\n',
      '[2/2] task t1 trial 0: user_stop, reward 0.0 (ETA 0s)\n',
    ]);
    expect(display.progress.done).toBe(2);
  });

  it('on a terminal: one line redrawn in place (not wrapped), notes above it, ended with a newline', () => {
    const written: string[] = [];
    const display = progressDisplay(2, { isTTY: true, columns: 60, write: (t) => void written.push(t) }, () => 0);
    display.simulation('a', sim(1));
    display.note('event stream lost; reconnecting');
    display.simulation('b', sim(0));
    display.end();
    const screen = written.join('');
    // No line feed but the note's and the last one: each redraw returns to the line's start and clears it.
    expect(screen.match(/\n/g)).toHaveLength(2);
    expect(screen.indexOf('event stream lost; reconnecting\n')).toBeLessThan(screen.indexOf('2/2 · avg reward 0.500'));
    expect(written).toContain('[##########..........] 1/2 · avg reward 1.000 · 0 infra errors · 0s elapsed · ETA 0s');
    // A line longer than the terminal is cut by the terminal: line wrapping is off while the bar is drawn.
    expect(written[0]).toBe('\x1b[?7l');
    expect(written).toContain('\x1b[?7h');
    expect(written.at(-1)).toBe('\n');
  });
});
