// Comparing runs of different task sets: the headline is computed on the tasks both runs scored only, and the
// tasks only one run scored are named, so per-task deltas of ±0 never sit under a headline that says otherwise.
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/viewer/compare.ts';
import { infraError, runResults, scored } from '../support/simulations.ts';

describe('compare two runs', () => {
  it('computes the headline on the shared tasks: equal rewards there give ±0 whatever else either run has', () => {
    // A: 6 tasks, B: the same 2 of them with the same rewards plus 4 failures of its own.
    const a = runResults(['t1', 't2', 't3', 't4', 't5', 't6'].map((t) => scored(t, 1)));
    const b = runResults([scored('t1', 1), scored('t2', 1), ...['t7', 't8', 't9', 't10'].map((t) => scored(t, 0))]);
    const comparison = compareRuns(a, b);
    expect(comparison.shared).toEqual(['t1', 't2']);
    expect(comparison.a.avgReward).toBe(1);
    expect(comparison.b.avgReward).toBe(1);
    expect(comparison.onlyA).toEqual(['t3', 't4', 't5', 't6']);
    expect(comparison.onlyB).toEqual(['t7', 't8', 't9', 't10']);
    expect([comparison.a.scoredTasks, comparison.b.scoredTasks]).toEqual([6, 6]);
  });

  it('a task only infrastructure errors reached in one run is not shared, and lists every task in natural order', () => {
    const a = runResults([scored('task_10', 1), scored('task_2', 0), scored('task_1', 1)]);
    const b = runResults([scored('task_10', 0), infraError('task_2', 'HTTP 401'), scored('task_1', 1)]);
    const comparison = compareRuns(a, b);
    expect(comparison.shared).toEqual(['task_1', 'task_10']);
    expect(comparison.onlyA).toEqual(['task_2']);
    expect(comparison.a.avgReward! - comparison.b.avgReward!).toBe(0.5);
    expect(comparison.tasks.map((t) => [t.taskId, t.delta])).toEqual([['task_1', 0], ['task_2', null], ['task_10', -1]]);
  });

  it('with no task in common there is no headline', () => {
    const comparison = compareRuns(runResults([scored('x', 1)]), runResults([scored('y', 0)]));
    expect(comparison.shared).toEqual([]);
    expect([comparison.a.avgReward, comparison.b.avgReward]).toEqual([null, null]);
    expect(comparison.a.passHatK).toEqual([]);
  });
});
