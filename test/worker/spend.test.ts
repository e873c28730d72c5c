// The USD budget counts every model call when it returns, in every role and attempt, finished or not, and holds as
// a hard limit: each call reserves an upper bound of its cost before it is made, so spend never passes the budget
// while every call costs at most its bound (the scripted priced models do). Spend is read back from the ledger
// and checked against the prices of the calls made.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, ApiKeyCreatedSchema, EpisodeCreatedSchema, EpisodeStepSchema, RunUsageSchema, TenantQuotasViewSchema } from '../../src/api/index.ts';
import type { RunRequest, TenantUsage } from '../../src/api/index.ts';
import { callCost } from '../../src/core/llm/pricing.ts';
import { call, getRun, pyBody, waitForRun } from './support/api.ts';
import type { CallOptions } from './support/api.ts';
import { PRICED_CALL_USAGE, SCRIPT_MODELS, scriptedRun } from './support/script.ts';
import { connect, errorData, RESET } from './support/openenv.ts';

const tenantKey = async (tenant: string): Promise<string> =>
  ApiKeyCreatedSchema.parse(await pyBody(await call('/v1/admin/keys', { body: { tenant, name: tenant } }))).key;

const setBudget = async (tenant: string, usd: number | null): Promise<void> => {
  expect((await call(`/v1/admin/tenants/${tenant}/quotas`, { method: 'PUT', body: { usd_per_day: usd } })).status).toBe(200);
};

const as = (key: string, path: string, options: CallOptions = {}) =>
  call(path, { ...options, headers: { ...options.headers, authorization: `Bearer ${key}` } });

const usageOf = async (tenant: string): Promise<TenantUsage> =>
  TenantQuotasViewSchema.parse(await pyBody(await call(`/v1/admin/tenants/${tenant}/quotas`))).usage;

/** The tenant's ledger: every call's recorded cost (null while in flight) and its reserved bound. */
const ledgerOf = async (tenant: string) =>
  (await env.DB.prepare('SELECT run_id, model, reserved_usd, cost_usd FROM model_calls WHERE tenant_id = ?').bind(tenant).all<{
    run_id: string | null;
    model: string;
    reserved_usd: number;
    cost_usd: number | null;
  }>()).results;

/** The ledger once every call has returned: all settled, and no new call in half a second (a stopped run's last calls return after it stops). */
const settledLedger = async (tenant: string) => {
  for (let previous = await ledgerOf(tenant); ; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await ledgerOf(tenant);
    if (now.length === previous.length && now.every((c) => c.cost_usd !== null)) return now;
    previous = now;
  }
};

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** One call of a priced scripted model, at its list price. */
const pricedCall = (model: string): number => callCost(model, PRICED_CALL_USAGE)!;

/** Bounds the scripted priced calls' reservations: their usage fits in 100 output tokens. */
const bounded = { max_tokens: 100 };

const pricedRun = (overrides: Partial<RunRequest> = {}): RunRequest =>
  scriptedRun({ llm_agent: SCRIPT_MODELS.pricedSlowAgent, llm_user: SCRIPT_MODELS.pricedUser, llm_judge: SCRIPT_MODELS.pricedJudge, llm_args_agent: bounded, llm_args_user: bounded, ...overrides });

const runIdOf = async (response: Response): Promise<string> => {
  expect(response.status, await response.clone().text()).toBe(202);
  return (JSON.parse(await response.text()) as { run_id: string }).run_id;
};

const close = (a: number, b: number): void => expect(Math.abs(a - b)).toBeLessThan(1e-9);

describe('USD spend metered per model call', () => {
  it('a run whose agent fails every attempt (HTTP 500) still spends its user simulator calls, every attempt counted', async () => {
    const key = await tenantKey('s-failing');
    await setBudget('s-failing', 10);
    const runId = await runIdOf(
      await as(key, '/v1/runs', {
        body: pricedRun({ llm_agent: SCRIPT_MODELS.pricedFailingAgent, llm_args_agent: { ...bounded, num_retries: 0 }, max_retries: 2, retry_delay: 0, task_ids: ['create_task_1'] }),
      }),
    );
    const run = await waitForRun(runId, { apiKey: key });
    expect(run.counts.infra_error).toBe(1);
    const ledger = await ledgerOf('s-failing');
    // Three attempts, each the user's opening message and the agent's failed reply.
    const userCalls = ledger.filter((c) => c.model === SCRIPT_MODELS.pricedUser);
    expect(userCalls).toHaveLength(3);
    expect(ledger.filter((c) => c.model === SCRIPT_MODELS.pricedFailingAgent).every((c) => c.cost_usd === 0)).toBe(true);
    const usage = await usageOf('s-failing');
    close(usage.usd_today, 3 * pricedCall(SCRIPT_MODELS.pricedUser));
    close(usage.usd_today, sum(ledger.map((c) => c.cost_usd!)));
    const runUsage = RunUsageSchema.parse(await pyBody(await as(key, `/v1/runs/${runId}/usage`)));
    expect(runUsage.metered).toMatchObject({ calls: ledger.length, in_flight: 0 });
    close(runUsage.metered!.usd, usage.usd_today);
  });

  it('open agent-driven episodes spend while open; once the budget is spent their calls and new episodes are refused', async () => {
    const key = await tenantKey('s-open');
    const budget = 0.03;
    await setBudget('s-open', budget);
    const create = () =>
      as(key, '/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: SCRIPT_MODELS.pricedTalkativeUser, llm_args_user: bounded } });
    const created = await Promise.all(Array.from({ length: 5 }, create));
    const open = [];
    for (const response of created) {
      const episode = response.status === 201 ? EpisodeCreatedSchema.parse(await response.json()) : null;
      if (episode !== null && !episode.done) open.push(episode);
    }
    expect(open.length).toBeGreaterThan(0);
    // Each opening is one user call, counted while its episode is open.
    const opened = await usageOf('s-open');
    close(opened.usd_today, open.length * pricedCall(SCRIPT_MODELS.pricedTalkativeUser));
    // The user never stops: keep talking until the budget refuses a user turn.
    const steps = new Map(open.map((e) => [e.episode_id, e.step]));
    for (let round = 0; round < 20 && steps.size > 0; round++) {
      await Promise.all(
        [...steps].map(async ([id, step]) => {
          const response = await as(key, `/v1/episodes/${id}/step`, { body: { step, message: { role: 'assistant', content: 'Tell me more.' } } });
          const body = (await pyBody(response)) as { step?: number; done?: boolean };
          if (response.status !== 200 || body.done === true) steps.delete(id);
          else steps.set(id, body.step!);
        }),
      );
      const usage = await usageOf('s-open');
      expect(usage.usd_today).toBeLessThanOrEqual(budget);
    }
    expect(steps.size).toBe(0);
    // New episodes open while what is left of the budget pays for an opening's bound (shorter than a long
    // conversation's); then one is refused without a call: at launch once the spend reaches the budget, else its
    // opening call is refused and its run stopped by the quota.
    let refusedWithoutCall = false;
    for (let i = 0; i < 10 && !refusedWithoutCall; i++) {
      const before = (await ledgerOf('s-open')).length;
      const response = await create();
      const episode = response.status === 201 ? EpisodeCreatedSchema.parse(await response.json()) : null;
      if (episode !== null && !episode.done) continue;
      if (episode !== null) expect((await getRun(episode.run_id, key)).error).toContain('usd_per_day');
      else expect(ApiErrorSchema.parse(await response.json()).error.message).toContain('usd_per_day');
      expect(await ledgerOf('s-open')).toHaveLength(before);
      refusedWithoutCall = true;
    }
    expect(refusedWithoutCall).toBe(true);
    const ledger = await ledgerOf('s-open');
    const usage = await usageOf('s-open');
    expect(usage.usd_today).toBeLessThanOrEqual(budget);
    close(usage.usd_today, sum(ledger.map((c) => c.cost_usd!)));
    close(usage.usd_today, ledger.length * pricedCall(SCRIPT_MODELS.pricedTalkativeUser));
  });

  it('30 runs launched at once against a small budget spend at most the budget, each call recorded', async () => {
    const key = await tenantKey('s-burst');
    const budget = 0.05;
    await setBudget('s-burst', budget);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => as(key, '/v1/runs', { body: pricedRun({ num_trials: 4, max_concurrency: 4, task_ids: ['create_task_1'] }) })),
    );
    const runIds = await Promise.all(responses.filter((r) => r.status === 202).map(runIdOf));
    expect(runIds.length).toBeGreaterThan(0);
    const runs = await Promise.all(runIds.map((id) => waitForRun(id, { apiKey: key, timeoutMs: 120_000 })));
    expect(runs.some((r) => r.status === 'cancelled' && r.error?.includes('usd_per_day'))).toBe(true);
    const ledger = await settledLedger('s-burst');
    expect(ledger.every((c) => c.cost_usd !== null && c.cost_usd <= c.reserved_usd)).toBe(true);
    const usage = await usageOf('s-burst');
    expect(usage.usd_today).toBeLessThanOrEqual(budget);
    close(usage.usd_today, sum(ledger.map((c) => c.cost_usd!)));
    // Each call cost its model's list price for the scripted usage, or nothing when it failed (a call in flight
    // when its episode was cancelled may be cut off).
    expect(ledger.every((c) => c.cost_usd === 0 || Math.abs(c.cost_usd! - pricedCall(c.model)) < 1e-12)).toBe(true);
    expect(ledger.filter((c) => c.cost_usd! > 0).length).toBeGreaterThan(0);
    // Each run's metered spend is its share of the ledger.
    const perRun = await Promise.all(runIds.map(async (id) => RunUsageSchema.parse(await pyBody(await as(key, `/v1/runs/${id}/usage`))).metered!.usd));
    close(sum(perRun), usage.usd_today);
  }, 180_000);

  it('a model without a known price under a USD budget → 400 at launch naming the model and the quota, nothing created', async () => {
    const key = await tenantKey('s-unpriced');
    await setBudget('s-unpriced', 1);
    const response = await as(key, '/v1/runs', { body: pricedRun({ llm_user: SCRIPT_MODELS.user }) });
    expect(response.status).toBe(400);
    const { error } = ApiErrorSchema.parse(await response.json());
    expect(error.issues?.[0]?.path).toBe('llm_user');
    expect(error.message).toContain(SCRIPT_MODELS.user);
    expect(error.message).toContain('usd_per_day');
    expect((await env.DB.prepare(`SELECT count(*) AS n FROM runs WHERE tenant_id = 's-unpriced'`).first<{ n: number }>())!.n).toBe(0);
    // Without a budget the same run is accepted (its unpriced calls count 0).
    await setBudget('s-unpriced', null);
    expect((await as(key, '/v1/runs', { body: pricedRun({ llm_user: SCRIPT_MODELS.user }) })).status).toBe(202);
  });

  it('an unpriced model under a USD budget refuses an agent-driven episode too: 400 on the step API, VALIDATION_ERROR on OpenEnv, nothing created', async () => {
    const key = await tenantKey('s-unpriced-episode');
    await setBudget('s-unpriced-episode', 1);
    const episode = { ...RESET, llm_judge: SCRIPT_MODELS.pricedJudge };
    const response = await as(key, '/v1/episodes', { body: episode });
    expect(response.status).toBe(400);
    const { error } = ApiErrorSchema.parse(await response.json());
    expect(error).toMatchObject({ code: 'invalid_request', issues: [{ path: 'llm_user' }] });
    expect(error.message).toContain(SCRIPT_MODELS.user);
    expect(error.message).toContain('usd_per_day');
    const client = await connect(key);
    const refusal = errorData(await client.ask({ type: 'reset', data: episode }));
    client.close();
    expect(refusal).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, reason: 'invalid_request', errors: [{ path: 'llm_user' }] });
    expect(refusal.message).toContain('usd_per_day');
    expect((await env.DB.prepare(`SELECT count(*) AS n FROM runs WHERE tenant_id = 's-unpriced-episode'`).first<{ n: number }>())!.n).toBe(0);
  });

  it('a banking_knowledge episode\'s dense retrieval spends its embeddings calls: usd_today moves by their recorded cost', async () => {
    const key = await tenantKey('s-embeddings');
    const body = { domain: 'banking_knowledge', task_id: 'task_005', llm_user: SCRIPT_MODELS.user, retrieval_config: 'openai_embeddings' };
    const created = await as(key, '/v1/episodes', { body });
    expect(created.status, await created.clone().text()).toBe(201);
    const episode = EpisodeCreatedSchema.parse(await created.json());
    const step = async (n: number, message: unknown) => {
      const response = await as(key, `/v1/episodes/${episode.episode_id}/step`, { body: { step: n, message } });
      expect(response.status, await response.clone().text()).toBe(200);
      return EpisodeStepSchema.parse(await response.json());
    };
    const searched = await step(0, { role: 'assistant', tool_calls: [{ id: 'search_0', type: 'function', function: { name: 'KB_search', arguments: '{"query": "credit card annual fee"}' } }] });
    expect(searched.observation.messages.find((m) => m.role === 'tool')?.content).toMatch(/^1\. /);
    expect(await step(1, { role: 'assistant', content: 'All done.' })).toMatchObject({ done: true });
    const { usage } = await waitForRun(episode.run_id, { apiKey: key });
    // The user simulator is unpriced (its calls count 0): what the tenant spent is the embeddings' cost.
    expect(usage.retrieval.cost).toBeGreaterThan(0);
    const ledger = await settledLedger('s-embeddings');
    const embeddings = ledger.filter((c) => c.model === 'openai/text-embedding-3-large');
    expect(embeddings.length).toBeGreaterThan(0);
    expect(embeddings.every((c) => c.run_id === episode.run_id && c.reserved_usd >= c.cost_usd!)).toBe(true);
    close(sum(embeddings.map((c) => c.cost_usd!)), usage.retrieval.cost);
    close((await usageOf('s-embeddings')).usd_today, usage.retrieval.cost);
  });
});
