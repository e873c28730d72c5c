// The run page's report: infrastructure errors grouped by their recorded reason (never silent), tasks in natural
// order, and the task search and failures-only filter.
import { describe, expect, it } from 'vitest';
import { infraErrorGroups, taskRows } from '../../src/viewer/report.ts';
import { TaskFilterSchema, filterTasks } from '../../src/viewer/task-filter.ts';
import { infraError, scored } from '../support/simulations.ts';
import { GRADING_FAILURE_NOTE } from '../../src/core/runner/grading-failure.ts';

const refused = 'Incorrect API key provided: sk-***';

describe('run report', () => {
  it('groups infrastructure errors by reason, the most frequent first, each with its simulations', () => {
    const sims = [infraError('a', 'timeout'), infraError('b', refused), scored('c', 1), infraError('d', refused, 1)];
    const groups = infraErrorGroups(sims);
    expect(groups.map((g) => [g.reason, g.simulations.map((s) => `${s.taskId}#${s.trial}`)])).toEqual([
      [refused, ['b#0', 'd#1']],
      ['timeout', ['a#0']],
    ]);
  });

  it('an infrastructure error with no recorded error says so rather than nothing', () => {
    const sim = { ...infraError('a', 'x'), info: null };
    expect(infraErrorGroups([sim])[0]!.reason).toBe('no reason recorded');
  });

  it('an error raised while grading carries its explanation; a provider failure has none', () => {
    const grading = { ...infraError('create_task_1_with_env_assertions', 'Task task_2 not found'), info: { error: 'Task task_2 not found', error_stage: 'evaluation' } };
    const groups = infraErrorGroups([grading, infraError('b', refused)]);
    expect(groups.map((g) => [g.reason, g.note])).toEqual([
      ['Task task_2 not found', GRADING_FAILURE_NOTE],
      [refused, null],
    ]);
  });

  it('sorts tasks in natural order of their ids', () => {
    const rows = taskRows(['task_10', 'task_2', 'task_1', '[b]x', '[a]y'].map((t) => scored(t, 1)));
    expect(rows.map((r) => r.taskId)).toEqual(['[a]y', '[b]x', 'task_1', 'task_2', 'task_10']);
  });
});

describe('task search and failures filter', () => {
  const rows = taskRows([scored('create_task_1', 1), scored('update_task_1', 0), infraError('update_task_2', refused), scored('impossible', 1), scored('impossible', 0, 1)]);
  const shown = (query: Record<string, string>) => filterTasks(rows, TaskFilterSchema.parse(query)).map((r) => r.taskId);

  it('matches the text in task ids, case-insensitively', () => {
    expect(shown({ q: 'UPDATE' })).toEqual(['update_task_1', 'update_task_2']);
  });

  it("matches an infrastructure error's reason and a termination reason", () => {
    expect(shown({ q: 'api key' })).toEqual(['update_task_2']);
    expect(shown({ q: 'user_stop' })).toEqual(['create_task_1', 'impossible', 'update_task_1']);
  });

  it('keeps tasks with a trial that is not a success (an infrastructure error is one)', () => {
    expect(shown({ failures: '1' })).toEqual(['impossible', 'update_task_1', 'update_task_2']);
    expect(shown({ failures: '1', q: 'update' })).toEqual(['update_task_1', 'update_task_2']);
  });

  it('an over-long or missing search is no search', () => {
    expect(shown({ q: 'x'.repeat(201) })).toHaveLength(4);
    expect(shown({})).toHaveLength(4);
  });
});
