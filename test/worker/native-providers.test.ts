// `anthropic/…` models in the Worker: the agent's turns go to Anthropic's API with the operator's key, or with
// a tenant's own Anthropic credential when it has one; the key shows nowhere.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, startRun, waitForRun } from './support/api.ts';
import { NATIVE, scriptedRun } from './support/script.ts';

const run = (model: string) => scriptedRun({ task_ids: ['create_task_1'], task_split_name: null, llm_agent: `anthropic/${model}` });

describe('Anthropic models', () => {
  it("run on the operator's key", async () => {
    const runId = await startRun(run(NATIVE.operatorModel));
    expect((await waitForRun(runId)).counts).toMatchObject({ done: 1, passed: 1, infra_error: 0 });
    const results = await (await call(`/v1/runs/${runId}/results`)).text();
    expect(results).toContain('"model": "claude-sonnet-4-5"');
    expect(results).not.toContain(NATIVE.operatorKey);
  });

  it("run on a tenant's own Anthropic key when it has one", async () => {
    const created = await call('/v1/admin/keys', { body: { tenant: 'anthropic-tenant', name: 'ci' } });
    const tenantKey = ((await created.json()) as { key: string }).key;
    const asTenant = { authorization: `Bearer ${tenantKey}` };
    const put = await call('/v1/provider-credentials/anthropic', { method: 'PUT', headers: asTenant, body: { api_key: NATIVE.tenantKey } });
    expect(put.status).toBe(200);
    const runId = await startRun(run(NATIVE.tenantModel), asTenant);
    expect((await waitForRun(runId, { apiKey: tenantKey })).counts).toMatchObject({ done: 1, passed: 1, infra_error: 0 });
    // The operator's key is refused for the tenant's model: the tenant's key made the calls.
    const operatorRun = await startRun(run(NATIVE.tenantModel));
    expect((await waitForRun(operatorRun)).counts).toMatchObject({ done: 1, infra_error: 1 });
    const row = await env.DB.prepare(`SELECT key_ciphertext FROM provider_credentials WHERE tenant_id = 'anthropic-tenant'`).first<{ key_ciphertext: string }>();
    expect(row?.key_ciphertext).not.toContain(NATIVE.tenantKey);
  });
});

// Reasoning models through the Worker (turns produced by the queue consumer or the episode itself, the state
// crossing queue messages and Durable Object storage), against scripted servers that refuse a request missing
// the agent's reasoning state: a refusal would end the episode as an infrastructure error.
describe('reasoning models', () => {
  const reasoningRun = (llm_agent: string, llm_args_agent: Record<string, unknown>) =>
    scriptedRun({ task_ids: ['create_task_1'], task_split_name: null, llm_agent, llm_args_agent: llm_args_agent as never });

  it.each([
    ['anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096, temperature: 0 }, 'anthropic'],
    ['gemini/gemini-3-pro-preview', { reasoning_effort: 'high' }, 'google'],
    ['openai/responses/gpt-5', { reasoning_effort: 'low', api_base: env.TEST_RESPONSES_URL }, 'openai.responses'],
  ] as const)('%s: its reasoning state goes back to it and is kept in the results', async (model, args, provider) => {
    const runId = await startRun(reasoningRun(model, args));
    expect((await waitForRun(runId)).counts).toMatchObject({ done: 1, passed: 1, infra_error: 0 });
    type Usage = Record<'prompt_tokens' | 'completion_tokens' | 'reasoning_tokens' | 'cache_read_tokens' | 'cache_write_tokens', number | undefined>;
    const results = (await (await call(`/v1/runs/${runId}/results`)).json()) as {
      simulations: { info: { usage: { agent: Usage } }; messages: { role: string; tool_calls: unknown; usage: Usage | null; provider_state?: { provider: string; model: string; reasoning: string | null; omitted_args?: string[] } }[] }[];
    };
    const [simulation] = results.simulations;
    const turn = simulation!.messages.find((m) => m.role === 'assistant' && m.tool_calls !== null);
    expect(turn?.provider_state).toMatchObject({ provider, model });
    if (provider === 'anthropic') expect(turn?.provider_state).toMatchObject({ reasoning: 'I need to create the task.', omitted_args: expect.arrayContaining(['temperature']) });
    // The turns' cached and reasoning tokens cross the turn's RPC and queue once, into the messages and the agent's usage.
    const usages = simulation!.messages.flatMap((m) => (m.role === 'assistant' && m.usage !== null ? [m.usage] : []));
    const sum = (key: keyof Usage) => usages.reduce((total, u) => total + (u[key] ?? 0), 0);
    if (provider === 'anthropic') expect(sum('cache_read_tokens') + sum('cache_write_tokens')).toBeGreaterThan(0);
    else expect(sum('reasoning_tokens')).toBe(provider === 'google' ? 10 : 8);
    expect(simulation!.info.usage.agent).toMatchObject({
      calls: 2,
      prompt_tokens: sum('prompt_tokens'),
      completion_tokens: sum('completion_tokens'),
      reasoning_tokens: sum('reasoning_tokens'),
      cache_read_tokens: sum('cache_read_tokens'),
      cache_write_tokens: sum('cache_write_tokens'),
    });
  });

  it('an argument the model cannot take is refused with a 400 naming it, and creates nothing', async () => {
    const response = await call('/v1/runs', { body: reasoningRun('anthropic/claude-sonnet-4-5', { frequency_penalty: 0.5 }) });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('llm_args_agent.frequency_penalty');
  });

  it('a thinking budget at or over max_tokens is refused with a 400 naming both fields', async () => {
    const response = await call('/v1/runs', { body: reasoningRun('anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 8000 }, max_tokens: 4096 }) });
    expect(response.status).toBe(400);
    const text = JSON.stringify(await response.json());
    expect(text).toContain('llm_args_agent.thinking');
    expect(text).toContain('thinking.budget_tokens (8000) must be less than max_tokens (4096)');
  });
});
