// The oracle plays telecom tasks through the real orchestrator, user simulator path and evaluator: a
// deterministic sample (every 40th task of tasks.json, which spans all three issue families) in every mode,
// and played-wrong variants that must fail. `bin/tau2-edge check-data --domain telecom` covers all 2,285.
import { describe, expect, it } from 'vitest';
import { checkTask } from '../../../src/core/runner/check-data.ts';
import { pyFloat } from '../../../src/core/py/index.ts';
import type { AgentKind } from '../../../src/core/schemas/episode.ts';
import type { Task } from '../../../src/core/schemas/task.ts';
import { loaded, sequentialIds, steppingClock } from '../../support/domains.ts';

const check = async (domainName: string, task: Task, agent: AgentKind = 'llm_agent') => {
  const { domain, data, guidelines } = await loaded(domainName);
  return checkTask(task, { domain, data, guidelines, clock: steppingClock(), newId: sequentialIds(), knownIssues: {}, agent });
};

const { data } = await loaded('telecom');
const sample = data.tasks.filter((_, i) => i % 40 === 0);
const cases = sample.map((t) => [t.id, t] as const);

describe('telecom oracle on a deterministic sample', () => {
  it('the sample covers the three issue families and both reward bases', () => {
    expect(new Set(sample.map((t) => t.id.slice(0, t.id.indexOf(']') + 1)))).toEqual(
      new Set(['[mobile_data_issue]', '[service_issue]', '[mms_issue]']),
    );
    expect(new Set(sample.map((t) => t.evaluation_criteria!.reward_basis.join('×')))).toEqual(
      new Set(['ENV_ASSERTION', 'ENV_ASSERTION×ACTION']),
    );
  });

  it.each(cases)('dual control: %s scores 1.0', async (_, task) => {
    const result = await check('telecom', task);
    expect(result.problems).toEqual([]);
    expect(result.reward).toBe(1);
    const envAssertions = result.simulation!.reward_info!.env_assertions!;
    expect(envAssertions.length).toBeGreaterThan(0);
    expect(envAssertions.every((a) => a.met)).toBe(true);
  });

  it.each(cases.filter((_, i) => i % 4 === 0))('no user (solo): %s scores 1.0', async (_, task) => {
    const result = await check('telecom', task, 'llm_agent_solo');
    expect(result.problems).toEqual([]);
    expect(result.simulation!.termination_reason).toBe('agent_stop');
    // Every call, the user's actions included, was made by the agent.
    const calls = result.simulation!.messages!.flatMap((m) => ('tool_calls' in m ? (m.tool_calls ?? []) : []));
    expect(calls.every((c) => c.requestor === 'assistant')).toBe(true);
  });

  it.each(cases.filter((_, i) => i % 4 === 1))('oracle plan (gt): %s scores 1.0', async (_, task) => {
    expect((await check('telecom', task, 'llm_agent_gt')).problems).toEqual([]);
  });

  it.each(cases.filter((_, i) => i % 4 === 2))('telecom-workflow: %s scores 1.0', async (_, task) => {
    expect((await check('telecom-workflow', task)).problems).toEqual([]);
  });
});

describe('played wrong, the tasks fail', () => {
  const withoutLastAction = (task: Task): Task => ({
    ...task,
    evaluation_criteria: { ...task.evaluation_criteria!, actions: task.evaluation_criteria!.actions!.slice(0, -1) },
  });

  it.each(cases.filter(([, t]) => t.evaluation_criteria!.actions!.length > 1).slice(0, 6))(
    '%s without its last gold action: an env assertion is not met',
    async (_, task) => {
      const played = await check('telecom', withoutLastAction(task));
      // Graded against the full task: the oracle played the truncated plan.
      const { domain, data: d } = await loaded('telecom');
      const { evaluateSimulation } = await import('../../../src/core/evaluator/evaluator.ts');
      const reward = await evaluateSimulation(played.simulation!, task, {
        domain, data: d, solo: false, strictReplay: true, now: () => '2026-01-01T00:00:00', judge: { recorded: null },
      });
      expect(reward.reward.value).toBe(0);
    },
  );

  it('a transfer task without the transfer fails on ACTION while its env assertion still holds', async () => {
    const task = data.tasks.find((t) => t.evaluation_criteria!.reward_basis.includes('ACTION'))!;
    const played = await check('telecom', withoutLastAction(task));
    const { domain, data: d } = await loaded('telecom');
    const { evaluateSimulation } = await import('../../../src/core/evaluator/evaluator.ts');
    const reward = await evaluateSimulation(played.simulation!, task, {
      domain, data: d, solo: false, strictReplay: true, now: () => '2026-01-01T00:00:00', judge: { recorded: null },
    });
    expect(task.evaluation_criteria!.actions!.at(-1)!.name).toBe('transfer_to_human_agents');
    expect(reward.reward.value).toBe(0);
    expect(reward.reward_breakdown).toEqual({ ENV_ASSERTION: pyFloat(1), ACTION: pyFloat(0) });
  });
});
