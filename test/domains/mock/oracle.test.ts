// The oracle plays every mock task through the real orchestrator and evaluator.
import { describe, expect, it } from 'vitest';
import { checkTask } from '../../../src/core/runner/check-data.ts';
import { loaded, sequentialIds, steppingClock } from '../../support/domains.ts';
import type { Task } from '../../../src/core/schemas/task.ts';

const check = async (task: Task, agent: 'llm_agent' | 'llm_agent_solo' = 'llm_agent') => {
  const { domain, data, guidelines } = await loaded('mock');
  return checkTask(task, {
    domain,
    data,
    guidelines,
    clock: steppingClock(),
    newId: sequentialIds(),
    knownIssues: domain.knownIssues ?? {},
    agent,
  });
};

const { data } = await loaded('mock');

describe('mock oracle', () => {
  it.each(data.tasks.map((t) => [t.id, t] as const))('%s: gold actions score 1.0 (or fail as a listed reference issue)', async (_, task) => {
    const result = await check(task);
    expect(result.problems).toEqual([]);
    if (result.knownIssue === null) expect(result.reward).toBe(1);
  });

  it('a wrong gold action (different status) scores 0 on the DB check', async () => {
    const task = data.tasks.find((t) => t.id === 'update_task_1')!;
    const wrong: Task = {
      ...task,
      evaluation_criteria: {
        ...task.evaluation_criteria!,
        actions: [{ ...task.evaluation_criteria!.actions![0]!, arguments: { task_id: 'task_1', status: 'pending' } }],
      },
    };
    // The oracle plays the wrong action; the evaluator still grades against the original task.
    const { domain, data: d, guidelines } = await loaded('mock');
    const played = await checkTask(wrong, {
      domain, data: d, guidelines, clock: steppingClock(), newId: sequentialIds(), knownIssues: {},
    });
    const { evaluateSimulation } = await import('../../../src/core/evaluator/evaluator.ts');
    const reward = await evaluateSimulation(played.simulation!, task, {
      domain, data: d, solo: false, strictReplay: true, now: () => '2026-01-01T00:00:00', judge: { recorded: null },
    });
    expect(reward.reward.value).toBe(0);
    expect(reward.db_check?.db_match).toBe(false);
  });
});
