// Scripted conversations over HTTP (fake OpenAI-compatible server → AI SDK client → engine): every
// termination reason, every reward type, malformed tool calls, and results files that re-grade identically.
import { describe, expect, it } from 'vitest';
import { isUserSimulator as isUser, systemPromptStartsWith, text, toolCall, toolCalls, httpError } from '../../support/fake-openai.ts';
import { scriptedProvider, scriptedSpec as spec } from '../../support/scripted.ts';
import { createAiSdkClient } from '../../../src/core/llm/ai-sdk-client.ts';
import { runSimulation, runWithRetry } from '../../../src/core/runner/simulation.ts';
import type { SimulationDeps } from '../../../src/core/runner/simulation.ts';
import { runBatch } from '../../../src/core/runner/batch.ts';
import { RunConfigSchema } from '../../../src/core/schemas/run-config.ts';
import { ResultsSchema } from '../../../src/core/schemas/simulation.ts';
import type { Task } from '../../../src/core/schemas/task.ts';
import { regradeSimulation } from '../../../src/core/evaluator/regrade.ts';
import { computeMetrics } from '../../../src/core/metrics/agent-metrics.ts';
import { dumpsPy, parsePyJson, pyFloat } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { loaded, sequentialIds, steppingClock } from '../../support/domains.ts';

const scripted = scriptedProvider();
const { userSays, agentSays } = scripted;
const isJudge = systemPromptStartsWith('\n        TASK');

const mock = await loaded('mock');
const task = (id: string): Task => mock.data.tasks.find((t) => t.id === id)!;

const deps = (overrides: Partial<SimulationDeps> = {}): SimulationDeps => scripted.deps(mock, overrides);

/** The B.3 script: the user asks, the agent creates the task and confirms, the user stops. */
const createTaskScript = (stop = 'Thanks! ###STOP###') => {
  userSays(text("Hi, please create a task called 'Important Meeting' for user_1."), text(stop));
  agentSays(
    toolCall('create_task', '{"user_id": "user_1", "title": "Important Meeting"}', 'call_a1'),
    text("The task 'Important Meeting' has been created successfully (task_2)."),
  );
};

describe('termination reasons', () => {
  it.each(['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###'])('a user message containing %s ends with user_stop', async (token) => {
    createTaskScript(`Done. ${token}`);
    const sim = await runSimulation(spec(task('create_task_1')), deps());
    expect(sim.termination_reason).toBe('user_stop');
    expect(sim.reward_info?.reward.value).toBe(1);
    expect(sim.messages?.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('the user simulator is called first, with the greeting as a user message and the seed', async () => {
    createTaskScript();
    await runSimulation(spec(task('create_task_1')), deps());
    const first = scripted.fake.requests[0]!.body as { messages: { role: string; content: string }[]; seed: number; temperature: number };
    expect(first.messages.slice(1)).toEqual([{ role: 'user', content: 'Hi! How can I help you today?' }]);
    expect(first.messages[0]!.content.endsWith("for user_1.\n</scenario>")).toBe(true);
    expect([first.seed, first.temperature]).toEqual([626729, 0]);
  });

  const notificationScript = () => {
    userSays(
      text('My inbox has a task.'),
      toolCall('check_notifications', '{}', 'call_u1'),
      toolCall('check_notifications', '{}', 'call_u2'),
      text('All good. ###STOP###'),
    );
    agentSays(text('Please check your notifications.'));
  };

  it.each([
    [3, 'max_steps', 5],
    [6, 'max_steps', 7],
    [7, 'max_steps', 8],
    [8, 'user_stop', 8],
  ])('max_steps=%i ends with %s after %i messages (limits override a stop in the same step)', async (maxSteps, reason, n) => {
    notificationScript();
    const sim = await runSimulation(spec(task('update_task_1'), { maxSteps }), deps());
    expect(sim.termination_reason).toBe(reason);
    expect(sim.messages).toHaveLength(n);
    if (reason === 'max_steps') {
      expect(sim.reward_info?.reward.value).toBe(0);
      expect(sim.reward_info?.info).toEqual({ note: 'Simulation terminated prematurely. Termination reason: max_steps' });
    }
  });

  it('ten failing tool calls end with too_many_errors before the agent sees the tenth error', async () => {
    userSays(text('Create a task please.'));
    agentSays(...Array.from({ length: 10 }, (_, i) => toolCall('no_such_tool', '{}', `bad_${i}`)));
    const sim = await runSimulation(spec(task('create_task_1')), deps());
    expect(sim.termination_reason).toBe('too_many_errors');
    expect(sim.messages?.at(-1)).toMatchObject({ role: 'tool', error: true, content: "Error: Tool 'no_such_tool' not found." });
    expect(sim.reward_info?.reward.value).toBe(0);
  });

  it('solo mode: done ends with agent_stop; a text-only reply fails the attempt; text beside a call is an agent_error under the protocol', async () => {
    agentSays(toolCall('create_task', '{"user_id": "user_1", "title": "Important Meeting"}', 's1'), toolCall('done', '{}', 's2'));
    const solo = await runSimulation(spec(task('create_task_1'), { agent: 'llm_agent_solo' }), deps({ userModel: null }));
    expect(solo.termination_reason).toBe('agent_stop');
    expect(solo.messages?.at(-1)).toMatchObject({ role: 'assistant', content: '###STOP###', tool_calls: null });
    expect(solo.reward_info?.reward.value).toBe(1);
    const soloRequest = scripted.fake.requests[0]!.body as { tool_choice: string; tools: { function: { name: string } }[] };
    expect(soloRequest.tool_choice).toBe('required');
    expect(soloRequest.tools.map((t) => t.function.name).at(-1)).toBe('done');

    // A solo reply without a tool call fails the attempt (the reference raises and retries it).
    agentSays(text('I think I am finished.'));
    await expect(
      runSimulation(spec(task('create_task_1'), { agent: 'llm_agent_solo' }), deps({ userModel: null })),
    ).rejects.toThrow();

    // With the protocol enforced, solo text next to a tool call is an agent_error.
    agentSays(toolCalls([{ id: 's3', name: 'get_users', arguments: '{}' }], { content: 'Looking up users.' }));
    const chatty = await runSimulation(
      spec(task('create_task_1'), { agent: 'llm_agent_solo', enforceCommunicationProtocol: true }),
      deps({ userModel: null }),
    );
    expect(chatty.termination_reason).toBe('agent_error');
  });

  it('with the protocol enforced, a user message with text and a tool call is a user_error', async () => {
    userSays(toolCalls([{ id: 'u1', name: 'check_notifications', arguments: '{}' }], { content: 'Let me look.' }));
    const sim = await runSimulation(spec(task('create_task_1'), { enforceCommunicationProtocol: true }), deps());
    expect(sim.termination_reason).toBe('user_error');
  });

  it('a wall-clock timeout ends with timeout', async () => {
    userSays(text('Hello there.'));
    agentSays(text('How can I help?'));
    const slowClock = { nowMs: (() => { let t = 0; return () => (t += 1000); })() };
    const sim = await runSimulation(spec(task('create_task_1'), { timeoutSeconds: 5 }), deps({ clock: slowClock }));
    expect(sim.termination_reason).toBe('timeout');
  });

  it('a provider that keeps failing yields an infrastructure_error record, excluded from metrics', async () => {
    scripted.fake.enqueueFor(isUser, ...Array.from({ length: 4 }, () => httpError(500)));
    const sim = await runWithRetry(spec(task('create_task_1')), deps(), { maxRetries: 3, retryDelayMs: 0, sleep: async () => {} });
    expect(sim.termination_reason).toBe('infrastructure_error');
    expect(sim.reward_info).toBeNull();
    expect(sim.info).toMatchObject({ error_type: 'InfraError', failed_after_attempts: 4 });
    // The traceback keeps the error's type and message, never stack frames with file paths.
    const info = sim.info as { error: string; error_traceback: string };
    expect(info.error_traceback).toBe(`InfraError: ${info.error}`);
    expect(JSON.stringify(sim)).not.toContain('test-key');
    const metrics = computeMetrics({ info: { num_trials: 1 } as never, simulations: [sim] });
    expect([metrics.total_simulations, metrics.infra_error_count]).toEqual([0, 1]);
  });
});

describe('malformed tool calls from the model', () => {
  it('invalid JSON, missing, wrong-typed and unknown (even index-like) arguments get error tool messages and count as errors', async () => {
    userSays(text('Create a task please.'), text('Thanks ###STOP###'));
    agentSays(
      toolCall('create_task', '{"user_id": "user_1", "title": ', 'm1'),
      toolCall('create_task', '{"user_id": "user_1"}', 'm2'),
      toolCall('create_task', '{"user_id": "user_1", "title": 7}', 'm3'),
      toolCall('create_task', '{"user_id": "user_1", "title": "Important Meeting", "color": "red"}', 'm4'),
      toolCall('create_task', '{"user_id": "user_1", "title": "Important Meeting", "0": "red"}', 'm5'),
      text('Sorry, I could not do it.'),
    );
    const sim = await runSimulation(spec(task('create_task_1'), { maxErrors: 5 }), deps());
    const errors = (sim.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(errors[0]).toMatch(/^Error: Tool call arguments are not a valid JSON object/);
    expect(errors[1]).toBe("Error: MockTools.create_task() missing 1 required positional argument: 'title'");
    expect(errors[2]).toMatch(/^Error: 1 validation error for Task\ntitle\n  Input should be a valid string/);
    expect(errors[3]).toBe("Error: MockTools.create_task() got an unexpected keyword argument 'color'");
    expect(errors[4]).toBe("Error: MockTools.create_task() got an unexpected keyword argument '0'");
    expect(sim.termination_reason).toBe('too_many_errors');
  });
});

describe('reward types', () => {
  it('DB and COMMUNICATE: the B.3 conversation scores 1.0 with the reference breakdown', async () => {
    createTaskScript();
    const sim = await runSimulation(spec(task('create_task_1')), deps());
    expect(sim.reward_info?.reward_breakdown).toEqual({ DB: pyFloat(1), COMMUNICATE: pyFloat(1) });
    expect(sim.agent_cost).not.toBeNull();
  });

  it('ENV_ASSERTION: the created task must be pending', async () => {
    createTaskScript();
    const sim = await runSimulation(spec(task('create_task_1_with_env_assertions')), deps());
    expect(sim.reward_info?.env_assertions?.[0]?.met).toBe(true);
    expect(sim.reward_info?.reward_breakdown).toEqual({ DB: pyFloat(1), ENV_ASSERTION: pyFloat(1) });
  });

  it('ACTION: an impossible task needs a transfer (compare_args [] accepts any summary); none scores 0', async () => {
    userSays(text('Delete all my tasks.'), text('###TRANSFER###'));
    agentSays(toolCall('transfer_to_human_agents', '{"summary": "wants deletion"}', 't1'), text('Transferring you now.'));
    const good = await runSimulation(spec(task('impossible_task_1')), deps());
    expect(good.reward_info?.reward_breakdown).toEqual({ DB: pyFloat(1), ACTION: pyFloat(1) });
    expect(good.reward_info?.action_checks?.[0]?.tool_type).toBe('generic');

    userSays(text('Delete all my tasks.'), text('Fine. ###STOP###'));
    agentSays(text('I cannot delete tasks.'));
    const bad = await runSimulation(spec(task('impossible_task_1')), deps());
    expect(bad.reward_info?.action_checks?.[0]?.action_match).toBe(false);
    expect(bad.reward_info?.reward.value).toBe(0);
  });

  it('COMMUNICATE: the required information must appear in an agent message', async () => {
    const t = task('update_task_with_initialization_data');
    const info = t.evaluation_criteria!.communicate_info!;
    userSays(text('Mark task_2 completed.'), text('Great ###STOP###'));
    agentSays(toolCall('update_task_status', '{"task_id": "task_2", "status": "completed"}', 'c1'), text(`${info.join(', ')}.`));
    const sim = await runSimulation(spec(t), deps());
    expect(sim.reward_info?.communicate_checks?.every((c) => c.met)).toBe(true);
    expect(sim.reward_info?.reward.value).toBe(1);
  });

  it('NL_ASSERTION: the judge is asked with the reference prompt and its verdicts decide the reward', async () => {
    const base = task('create_task_1');
    const t: Task = { ...base, evaluation_criteria: { ...base.evaluation_criteria!, reward_basis: ['NL_ASSERTION'] } };
    createTaskScript();
    const verdict = { results: [{ expectedOutcome: 'x', reasoning: 'confirmed', metExpectation: false }] };
    scripted.fake.enqueueFor(isJudge, text(JSON.stringify(verdict)));
    const sim = await runSimulation(spec(t), deps());
    expect(sim.reward_info?.nl_assertions).toEqual([{ nl_assertion: 'x', met: false, justification: 'confirmed' }]);
    expect(sim.reward_info?.reward.value).toBe(0);
    const judgeBody = scripted.fake.requests.at(-1)!.body as { messages: { content: string }[]; tools?: unknown };
    expect(judgeBody.tools).toBeUndefined();
    expect(judgeBody.messages[1]!.content).toContain("expectedOutcomes:\n        ['The agent confirmed the task was created successfully']");
    expect(judgeBody.messages[1]!.content).toContain('\nassistant: None\ntool: {"task_id": "task_2"');
  });
});

describe('results files written by the engine', () => {
  it('pass the schema and re-grade to the same rewards', async () => {
    createTaskScript();
    createTaskScript('No thanks.');
    userSays(text('###STOP###'));
    const config = RunConfigSchema.parse({ domain: 'mock', task_ids: ['create_task_1'], num_trials: 2, max_concurrency: 1, max_steps: 9 });
    const client = createAiSdkClient({ baseURL: scripted.fake.baseURL, apiKey: 'k', maxRetries: 0, sleep: async () => {} });
    const results = await runBatch(config, {
      domain: mock.domain, data: mock.data, guidelines: mock.guidelines,
      clients: { agent: client, user: client, judge: client },
      clock: steppingClock(), newId: sequentialIds(), sleep: async () => {}, gitCommit: 'test',
    });
    expect(results.simulations.map((s) => s.seed)).toEqual([626729, 373753]);
    const reloaded = ResultsSchema.parse(parsePyJson(dumpsPy(results as unknown as PyValue, { indent: 2 })));
    expect(dumpsPy(reloaded as unknown as PyValue)).toBe(dumpsPy(results as unknown as PyValue));
    for (const sim of reloaded.simulations) {
      const r = await regradeSimulation(sim, reloaded, { domain: mock.domain, data: mock.data, judge: null, now: () => 'now' });
      expect(r.differences).toEqual({});
    }
    expect(computeMetrics(reloaded).pass_hat_ks).toEqual({ 1: 0.5, 2: 0 });
  });
});
