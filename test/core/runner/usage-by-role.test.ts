// Every call of a simulation accounted by role, over real HTTP (fake OpenAI-compatible server → AI SDK client →
// engine): the agent's and user's turns, the NL-assertion judge; cached and reasoning tokens kept on messages;
// priced and unpriced models; the run totals and the summary; the record still re-grades identically.
import { describe, expect, it } from 'vitest';
import { systemPromptStartsWith, text, toolCall } from '../../support/fake-openai.ts';
import { scriptedProvider, scriptedSpec as spec } from '../../support/scripted.ts';
import { createAiSdkClient } from '../../../src/core/llm/ai-sdk-client.ts';
import { runSimulation } from '../../../src/core/runner/simulation.ts';
import { regradeSimulation } from '../../../src/core/evaluator/regrade.ts';
import { recordedUsage, usageTotals } from '../../../src/core/metrics/role-usage.ts';
import { computeMetrics } from '../../../src/core/metrics/agent-metrics.ts';
import { summaryTable } from '../../../src/cli/summary.ts';
import { dumpsPy, parsePyJson, pyFloat } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { SimulationRunSchema } from '../../../src/core/schemas/simulation.ts';
import type { Task } from '../../../src/core/schemas/task.ts';
import { loaded } from '../../support/domains.ts';

const scripted = scriptedProvider();
const isJudge = systemPromptStartsWith('\n        TASK');
const mock = await loaded('mock');

/** create_task_1, graded on its DB and on one NL assertion (so the judge is called). */
const judgedTask = (): Task => {
  const base = mock.data.tasks.find((t) => t.id === 'create_task_1')!;
  return { ...base, evaluation_criteria: { ...base.evaluation_criteria!, reward_basis: ['DB', 'NL_ASSERTION'], nl_assertions: ['The agent created the task.'] } };
};

// gpt-4.1: $2 / $8 per million prompt / completion tokens, cached prompt $0.50 (the price table).
const AGENT_USAGE = { prompt_tokens: 1000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 400 }, completion_tokens_details: { reasoning_tokens: 60 } };
const AGENT_CALL_USD = 600 * 2e-6 + 400 * 5e-7 + 100 * 8e-6;
// gpt-4o: $2.50 / $10 per million.
const JUDGE_USAGE = { prompt_tokens: 2000, completion_tokens: 50 };
const JUDGE_CALL_USD = 2000 * 2.5e-6 + 50 * 1e-5;

const script = () => {
  scripted.userSays(text("Hi, please create a task called 'Important Meeting' for user_1."), text('Thanks! ###STOP###'));
  scripted.agentSays(
    toolCall('create_task', '{"user_id": "user_1", "title": "Important Meeting"}', 'call_a1', { usage: AGENT_USAGE }),
    text("The task 'Important Meeting' has been created.", { usage: AGENT_USAGE }),
  );
  const verdict = { results: [{ expectedOutcome: 'The agent created the task.', reasoning: 'It did.', metExpectation: true }] };
  scripted.fake.enqueueFor(isJudge, text(JSON.stringify(verdict), { usage: JUDGE_USAGE }));
};

const deps = () => {
  const client = createAiSdkClient({ baseURL: scripted.fake.baseURL, maxRetries: 0, sleep: async () => {} });
  const args = { temperature: pyFloat(0) };
  return scripted.deps(mock, {
    agentModel: { client, model: 'gpt-4.1', llmArgs: args },
    // A local model priced nowhere.
    userModel: { client, model: 'ollama_chat/local-user', llmArgs: args },
    judge: { client, model: 'gpt-4o', llmArgs: args },
  });
};

describe('usage by role of a simulation', () => {
  it('records agent, user and judge calls with their tokens; a priced model its cost, an unpriced one its name, never $0', async () => {
    script();
    const sim = await runSimulation(spec(judgedTask()), deps());
    expect(sim.reward_info?.reward.value).toBe(1);

    // The agent's messages keep the reported cached and reasoning tokens; the user's keep the reference's two keys.
    const agentMessages = sim.messages!.filter((m) => m.role === 'assistant' && m.usage !== null);
    expect(agentMessages.map((m) => (m as { usage: unknown }).usage)).toEqual([
      { completion_tokens: 100, prompt_tokens: 1000, reasoning_tokens: 60, cache_read_tokens: 400 },
      { completion_tokens: 100, prompt_tokens: 1000, reasoning_tokens: 60, cache_read_tokens: 400 },
    ]);
    expect(sim.messages!.filter((m) => m.role === 'user').map((m) => (m as { usage: unknown }).usage)).toEqual([
      { completion_tokens: 5, prompt_tokens: 10 },
      { completion_tokens: 5, prompt_tokens: 10 },
    ]);
    expect(sim.agent_cost?.value).toBeCloseTo(2 * AGENT_CALL_USD, 12);

    const usage = recordedUsage(sim)!;
    expect(usage.agent).toMatchObject({ calls: 2, prompt_tokens: 2000, completion_tokens: 200, reasoning_tokens: 120, cache_read_tokens: 800, cache_write_tokens: 0, unpriced_models: [] });
    expect(usage.agent.cost).toBeCloseTo(2 * AGENT_CALL_USD, 12);
    expect(usage.user).toEqual({ calls: 2, prompt_tokens: 20, completion_tokens: 10, reasoning_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cost: 0, unpriced_models: ['ollama_chat/local-user'] });
    expect(usage.judge).toMatchObject({ calls: 1, prompt_tokens: 2000, completion_tokens: 50, unpriced_models: [] });
    expect(usage.judge.cost).toBeCloseTo(JUDGE_CALL_USD, 12);
    expect([usage.retrieval.calls, usage.review.calls]).toEqual([0, 0]);

    // The run's totals and the summary say what each role spent.
    const totals = usageTotals([sim, sim], { agent: 'gpt-4.1', user: 'ollama_chat/local-user' });
    expect(totals.judge.calls).toBe(2);
    expect(totals.total.cost).toBeCloseTo(4 * AGENT_CALL_USD + 2 * JUDGE_CALL_USD, 12);
    expect(totals.total.unpriced_models).toEqual(['ollama_chat/local-user']);
    const table = summaryTable(computeMetrics({ info: { agent_info: { llm: 'gpt-4.1' } }, simulations: [sim, sim] } as never), totals);
    expect(table).toMatch(/^Agent +4 calls, 4000 \(1600 cache read\) prompt \+ 400 \(240 reasoning\) completion tokens, \$0\.0088$/m);
    expect(table).toMatch(/^User +4 calls, 40 prompt \+ 20 completion tokens, unpriced \(ollama_chat\/local-user\)$/m);
    expect(table).toMatch(/^Judge +2 calls, 4000 prompt \+ 100 completion tokens, \$0\.0110$/m);
    expect(table).toMatch(/^Retrieval +0 calls, 0 prompt \+ 0 completion tokens, none$/m);
    expect(table).toMatch(/^Total +10 calls, .* \$0\.0198 \+ unpriced \(ollama_chat\/local-user\)$/m);
  });

  it('the record round-trips through its file and re-grades identically (the recorded verdicts reused)', async () => {
    script();
    const sim = await runSimulation(spec(judgedTask()), deps());
    const reread = SimulationRunSchema.parse(parsePyJson(dumpsPy(sim as unknown as PyValue)));
    expect(recordedUsage(reread)).toEqual(recordedUsage(sim));
    const regraded = await regradeSimulation(reread, { tasks: [judgedTask()], info: { agent_info: { implementation: 'llm_agent' }, user_info: { implementation: 'user_simulator' } } } as never, {
      domain: mock.domain,
      data: mock.data,
      judge: null,
      now: () => '2026-01-01T00:00:00',
    });
    expect(regraded.differences).toEqual({});
  });
});
