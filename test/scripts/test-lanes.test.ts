// `npm test`'s plan: the tiers named, in lanes side by side (every tier when none is named), or one process when
// vitest arguments concern every tier; and the one summary line that counts every lane.
import { describe, expect, it } from 'vitest';
import { buildsLocalWorker, summaryCounts, summaryLine, testPlan, tierProjects } from '../../scripts/test-lanes.ts';

describe('npm test lanes', () => {
  it('runs every tier in a lane of its own, side by side', () => {
    expect(testPlan([])).toEqual({ lanes: [['unit'], ['worker'], ['e2e'], ['ops']], vitestArgs: [] });
    expect(testPlan(['ops', 'unit'])).toEqual({ lanes: [['unit'], ['ops']], vitestArgs: [] });
    expect(testPlan(['worker'])).toEqual({ lanes: [['worker']], vitestArgs: [] });
  });

  it('runs the tiers named in one process when vitest arguments follow them', () => {
    expect(testPlan(['unit', 'e2e', 'test/cli/view.test.ts'])).toEqual({ lanes: [['unit', 'e2e']], vitestArgs: ['test/cli/view.test.ts'] });
    expect(testPlan(['-t', 'grades'])).toEqual({ lanes: [['unit', 'worker', 'e2e', 'ops']], vitestArgs: ['-t', 'grades'] });
  });

  it('leaves an unknown tier to vitest, which names it', () => {
    expect(testPlan(['unit', 'nope'])).toEqual({ lanes: [['unit', 'nope']], vitestArgs: [] });
  });

  it('builds the local worker once for the lanes whose global setup would each build it (e2e and ops)', () => {
    expect(testPlan([]).lanes.map(buildsLocalWorker)).toEqual([false, false, true, true]);
    expect(testPlan(['worker', 'e2e']).lanes.map(buildsLocalWorker)).toEqual([false, true]);
  });

  it("runs a tier's projects: its own and those named after it", () => {
    expect(tierProjects('worker')).toEqual(['worker', 'worker-*']);
  });

  it('reads and writes the summary line', () => {
    expect(summaryCounts('3353 passed, 0 failed, 2 skipped')).toEqual({ passed: 3353, failed: 0, skipped: 2 });
    expect(summaryCounts(' 12 passed, 1 failed ')).toEqual({ passed: 12, failed: 1, skipped: 0 });
    expect(summaryCounts('      Tests  3353 passed | 2 skipped (3355)')).toBeNull();
    expect(summaryLine({ passed: 5, failed: 0, skipped: 0 })).toBe('5 passed, 0 failed');
    expect(summaryLine({ passed: 5, failed: 1, skipped: 2 })).toBe('5 passed, 1 failed, 2 skipped');
  });
});
