// banking_knowledge on the Worker: the run body's retrieval configuration is validated (400 naming the field,
// nothing created), a policy-only configuration runs its episodes with that configuration's policy, and the
// results record it as the reference does.
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, EpisodeCreatedSchema, EpisodeStepSchema, RunListSchema } from '../../src/api/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';

const runCount = async (): Promise<number> => RunListSchema.parse(await pyBody(await call('/v1/runs?limit=100'))).runs.length;

const refused = async (body: unknown, path: string, reason: RegExp) => {
  const before = await runCount();
  const response = await call('/v1/runs', { body });
  expect(response.status).toBe(400);
  const error = ApiErrorSchema.parse(await response.json()).error;
  expect(error.code).toBe('invalid_request');
  expect(error.issues?.map((i) => i.path)).toEqual([path]);
  expect(error.message).toMatch(reason);
  expect(await runCount()).toBe(before);
};

// task_005's gold actions, as its task file gives them.
const ID = '9K2X7M4P1N8Q3R5T6A';
const GOLD_005 = [
  ['transfer_to_human_agents', { summary: '' }],
  ['log_verification', { name: ID, user_id: ID, address: ID, email: ID, phone_number: ID, date_of_birth: ID, time_verified: '2025-11-14 03:40:00 EST' }],
  ['change_user_email', { user_id: '6680a37184', new_email: 'kenji.tanaka@gmail.com' }],
] as const;

const banking = (overrides: Record<string, unknown> = {}) => ({ ...scriptedRun(), domain: 'banking_knowledge', ...overrides });

describe('banking_knowledge runs on the Worker', () => {
  it('bad retrieval configurations and settings are refused, naming the field; nothing is created', async () => {
    await refused(banking({ retrieval_config: 'bm25', retrieval_config_kwargs: { top_k: 'ten' } }), 'retrieval_config_kwargs', /top_k/);
    await refused(banking({ retrieval_config: 'nope' }), 'retrieval_config', /Unknown retrieval variant: 'nope'/);
    await refused(scriptedRun({ retrieval_config: 'no_knowledge' }), 'retrieval_config', /The mock domain takes no retrieval configuration/);
    await refused(scriptedRun({ retrieval_config_kwargs: { top_k: 3 } }), 'retrieval_config_kwargs', /The mock domain/);
  });

  it('a no_knowledge run plays its episodes with that policy; the results record the configuration', async () => {
    const id = await startRun(banking({ retrieval_config: 'no_knowledge', retrieval_config_kwargs: { top_k: 3 }, task_ids: ['task_004'] }));
    const run = await waitForRun(id);
    expect(run.status).toBe('completed');
    const results = ResultsSchema.parse(await pyBody(await call(`/v1/runs/${id}/results`)));
    expect(results.info.retrieval_config).toBe('no_knowledge');
    expect(results.info.retrieval_config_kwargs).toEqual({ top_k: 3 });
    const policy = results.info.environment_info.policy;
    expect(policy).toMatch(/^# Rho-Bank/);
    const [simulation] = results.simulations;
    expect(simulation?.policy).toBe(policy);
    // The scripted agent calls a mock tool, so the transfer the task expects never happens: graded, reward 0.
    expect(simulation?.termination_reason).toBe('user_stop');
    expect(simulation?.reward_info?.reward.value).toBe(0);
  });

  it('an agent-driven episode (step API) sees the configuration\'s policy and tools, plays the gold actions and scores 1.0', async () => {
    const body = { domain: 'banking_knowledge', task_id: 'task_005', llm_user: SCRIPT_MODELS.user, retrieval_config: 'no_knowledge' };
    expect((await call('/v1/episodes', { body: { ...body, retrieval_config: 'bm25_rerank' } })).status).toBe(400);
    const created = await call('/v1/episodes', { body });
    expect(created.status, await created.clone().text()).toBe(201);
    const episode = EpisodeCreatedSchema.parse(await created.json());
    expect(episode.observation.policy).toMatch(/^# Rho-Bank/);
    const tools = (episode.observation.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(tools).toContain('unlock_discoverable_agent_tool');
    expect(tools).not.toContain('KB_search');
    let n = 0;
    for (const [name, args] of GOLD_005) {
      const message = { role: 'assistant', tool_calls: [{ id: `call_${n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
      const response = await call(`/v1/episodes/${episode.episode_id}/step`, { body: { step: n, message } });
      expect(response.status, await response.clone().text()).toBe(200);
      n += 1;
    }
    const last = EpisodeStepSchema.parse(await (await call(`/v1/episodes/${episode.episode_id}/step`, { body: { step: n, message: { role: 'assistant', content: 'All done.' } } })).json());
    expect(last).toMatchObject({ done: true, termination_reason: 'user_stop' });
    expect(last.reward_info).toMatchObject({ reward: 1 });
  });

  // Tools whose work awaits run inside the episode object: embeddings and the reranker's ratings come from the
  // tenant's provider (the scripted fake), each call under the provider's cap, and the shell runs in the episode.
  const playGold = async (episode: string, from: number, tools: [string, string][][]): Promise<{ texts: string[]; reward: unknown }> => {
    const texts: string[] = [];
    let n = from;
    for (const calls of tools) {
      const tool_calls = calls.map((c, i) => ({ id: `search_${n}_${i}`, type: 'function', function: { name: c[0], arguments: c[1] } }));
      const response = await call(`/v1/episodes/${episode}/step`, { body: { step: n, message: { role: 'assistant', tool_calls } } });
      expect(response.status, await response.clone().text()).toBe(200);
      const step = EpisodeStepSchema.parse(await response.json());
      texts.push(...step.observation.messages.filter((m) => m.role === 'tool').map((m) => String(m.content)));
      n += 1;
    }
    for (const [name, args] of GOLD_005) {
      const message = { role: 'assistant', tool_calls: [{ id: `call_${n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
      expect((await call(`/v1/episodes/${episode}/step`, { body: { step: n, message } })).status).toBe(200);
      n += 1;
    }
    const last = EpisodeStepSchema.parse(await (await call(`/v1/episodes/${episode}/step`, { body: { step: n, message: { role: 'assistant', content: 'All done.' } } })).json());
    return { texts, reward: last.reward_info?.reward };
  };

  it('alltools (the default): dense and BM25 search and the shell answer inside the episode; the gold actions still score 1.0', async () => {
    const created = await call('/v1/episodes', { body: { domain: 'banking_knowledge', task_id: 'task_005', llm_user: SCRIPT_MODELS.user } });
    expect(created.status, await created.clone().text()).toBe(201);
    const episode = EpisodeCreatedSchema.parse(await created.json());
    const tools = (episode.observation.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(tools.slice(0, 3)).toEqual(['KB_search_bm25', 'KB_search_dense', 'shell']);
    const { texts, reward } = await playGold(episode.episode_id, 0, [
      [['KB_search_dense', '{"query": "change my email address", "k": 2}'], ['shell', '{"command": "ls | wc -l"}']],
      [['KB_search_bm25', '{"query": "change my email address"}'], ['KB_search_dense', '{"query": "  "}']],
    ]);
    expect(texts[0]).toMatch(/^1\. .*\n   ID: doc_[\s\S]*\n2\. [\s\S]*\[Timing: retrieval=\d+ms/);
    expect(texts[0]).not.toMatch(/\n3\. /);
    expect(texts[1]).toBe('699\n');
    expect(texts[2]).toMatch(/^1\. [\s\S]*\n10\. /);
    expect(texts[3]).toBe("Error: Empty or missing input for key 'query': cannot generate embedding from blank text.");
    expect(reward).toBe(1);
  });

  it('openai_embeddings_reranker_grep: the reranker rates what dense search found; terminal_use_write keeps its files across steps', async () => {
    const reranked = EpisodeCreatedSchema.parse(await (await call('/v1/episodes', { body: { domain: 'banking_knowledge', task_id: 'task_005', llm_user: SCRIPT_MODELS.user, retrieval_config: 'openai_embeddings_reranker_grep' } })).json());
    const first = await playGold(reranked.episode_id, 0, [[['KB_search', '{"query": "credit card annual fee"}']]]);
    // The fake rater gives 2 per query word a document contains; 5 is the minimum, so every result rates 6 or more.
    const scores = [...first.texts[0]!.matchAll(/\n   Score: (\d+\.\d+)\n/g)].map((m) => Number(m[1]));
    expect(scores.length, first.texts[0]).toBeGreaterThan(0);
    expect(scores.every((score) => score >= 6 && score <= 10)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(first.reward).toBe(1);
    // The episode's embeddings and ratings are its run's retrieval calls: at least one query embedding and a rating per result kept.
    const { usage } = await waitForRun(reranked.run_id);
    expect(usage.retrieval.calls).toBeGreaterThan(scores.length);
    expect(usage.retrieval).toMatchObject({ unpriced_models: [] });
    expect(usage.retrieval.cost).toBeGreaterThan(0);

    const shell = EpisodeCreatedSchema.parse(await (await call('/v1/episodes', { body: { domain: 'banking_knowledge', task_id: 'task_005', llm_user: SCRIPT_MODELS.user, retrieval_config: 'terminal_use_write' } })).json());
    const second = await playGold(shell.episode_id, 0, [
      [['shell', '{"command": "echo kenji > notes.md"}']],
      [['shell', '{"command": "cat notes.md && ls | wc -l"}']],
    ]);
    expect(second.texts).toEqual(['(no output)', 'kenji\n700\n']);
    expect(second.reward).toBe(1);
  });

  it('a step repeated while its tool calls await is answered as applied once it is: the calls run once', async () => {
    const episode = EpisodeCreatedSchema.parse(await (await call('/v1/episodes', { body: { domain: 'banking_knowledge', task_id: 'task_005', llm_user: SCRIPT_MODELS.user } })).json());
    const message = { role: 'assistant', tool_calls: [{ id: 'search_0', type: 'function', function: { name: 'KB_search_dense', arguments: '{"query": "repeat me"}' } }] };
    const step = () => call(`/v1/episodes/${episode.episode_id}/step`, { body: { step: 0, message } });
    const responses = await Promise.all([step(), step(), step()]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const state = await (await call(`/v1/episodes/${episode.episode_id}`)).json() as { step: number };
    expect(state.step).toBe(1);
    const observed = EpisodeStepSchema.parse(await responses[0]!.json()).observation.messages.filter((m) => m.role === 'tool');
    expect(observed).toHaveLength(1);
  });
});
