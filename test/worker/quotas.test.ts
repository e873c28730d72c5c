// Tenants' quotas: set by the operator; a launch or schedule over one gets 429 naming it with Retry-After,
// nothing is created; a run that reaches the daily USD budget stops, its finished simulations kept.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, ApiKeyCreatedSchema, TenantQuotasViewSchema } from '../../src/core/schemas/api.ts';
import type { TenantQuotasView } from '../../src/core/schemas/api.ts';
import { call, pyBody, waitForRun } from './support/api.ts';
import type { CallOptions } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';

const tenantKey = async (tenant: string): Promise<string> =>
  ApiKeyCreatedSchema.parse(await pyBody(await call('/v1/admin/keys', { body: { tenant, name: tenant } }))).key;

const setQuotas = async (tenant: string, quotas: Record<string, number | null>): Promise<TenantQuotasView> => {
  const response = await call(`/v1/admin/tenants/${tenant}/quotas`, { method: 'PUT', body: quotas });
  expect(response.status).toBe(200);
  return TenantQuotasViewSchema.parse(await pyBody(response));
};

const as = (key: string, path: string, options: CallOptions = {}) =>
  call(path, { ...options, headers: { ...options.headers, authorization: `Bearer ${key}` } });

const launch = (key: string, body: unknown) => as(key, '/v1/runs', { body });
const runIdOf = async (response: Response): Promise<string> => (JSON.parse(await response.text()) as { run_id: string }).run_id;

const overQuota = async (response: Response, quota: string): Promise<number> => {
  expect(response.status).toBe(429);
  const { error } = ApiErrorSchema.parse(await response.json());
  expect(error.code).toBe('quota_exceeded');
  expect(error.message).toContain(`Quota ${quota} reached`);
  return Number(response.headers.get('retry-after'));
};

const runsOf = async (tenant: string): Promise<number> =>
  (await env.DB.prepare('SELECT count(*) AS n FROM runs WHERE tenant_id = ?').bind(tenant).first<{ n: number }>())!.n;

describe('quotas', () => {
  it('the operator sets and reads quotas with usage; tenants cannot', async () => {
    const key = await tenantKey('q-admin');
    const view = await setQuotas('q-admin', { episodes_per_day: 10, usd_per_day: 2.5 });
    expect(view).toMatchObject({ tenant: 'q-admin', quotas: { episodes_per_day: 10, usd_per_day: 2.5, schedules: null, episodes_in_flight: null } });
    expect(view.usage).toEqual({ episodes_in_flight: 0, episodes_today: 0, schedules: 0, usd_today: 0 });
    expect((await as(key, '/v1/admin/tenants/q-admin/quotas')).status).toBe(404);
    expect((await call('/v1/admin/tenants/q-admin/quotas', { method: 'PUT', body: { episodes: 1 } })).status).toBe(400);
  });

  it('episodes_per_day: a launch past it → 429 until the next UTC day, nothing created', async () => {
    const key = await tenantKey('q-daily');
    await setQuotas('q-daily', { episodes_per_day: 3 });
    const first = await launch(key, scriptedRun({ task_ids: ['create_task_1', 'update_task_1'] }));
    expect(first.status).toBe(202);
    const retryAfter = await overQuota(await launch(key, scriptedRun({ task_ids: ['create_task_1', 'update_task_1'] })), 'episodes_per_day');
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(await runsOf('q-daily')).toBe(1);
    expect((await launch(key, scriptedRun({ task_ids: ['create_task_1'] }))).status).toBe(202);
  });

  it('episodes_in_flight: refused while the tenant runs that many, accepted once they finish', async () => {
    const key = await tenantKey('q-flight');
    await setQuotas('q-flight', { episodes_in_flight: 2 });
    const slow = await launch(key, scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, task_ids: ['create_task_1', 'update_task_1'] }));
    expect(slow.status).toBe(202);
    expect(await overQuota(await launch(key, scriptedRun({ task_ids: ['create_task_1'] })), 'episodes_in_flight')).toBe(60);
    await waitForRun(await runIdOf(slow), { apiKey: key });
    expect((await launch(key, scriptedRun({ task_ids: ['create_task_1'] }))).status).toBe(202);
  });

  it('schedules: one more than allowed → 429', async () => {
    const key = await tenantKey('q-sched');
    await setQuotas('q-sched', { schedules: 1 });
    const body = { name: 'nightly', interval_minutes: 60, run: scriptedRun() };
    expect((await as(key, '/v1/schedules', { body })).status).toBe(201);
    await overQuota(await as(key, '/v1/schedules', { body }), 'schedules');
  });

  it('usd_per_day: a spent budget refuses launches; a run reaching it stops, its finished simulations kept', async () => {
    const key = await tenantKey('q-budget');
    await setQuotas('q-budget', { usd_per_day: 1 });
    const response = await launch(key, scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, num_trials: 4, max_concurrency: 1, task_ids: ['create_task_1'] }));
    expect(response.status).toBe(202);
    const runId = await runIdOf(response);
    // The scripted models have no known price: spend the budget as a priced simulation of the tenant would.
    await env.DB.prepare(
      `INSERT INTO runs (id, tenant_id, status, config, total, created_at, updated_at) VALUES ('q-budget-spend', 'q-budget', 'completed', '{}', 1, ?1, ?1)`,
    ).bind(new Date().toISOString()).run();
    await env.DB.prepare(
      `INSERT INTO simulations (id, run_id, task_id, trial, termination_reason, reward, agent_cost, duration, record, created_at)
       VALUES ('q-budget-sim', 'q-budget-spend', 't', 0, 'user_stop', 1, 0.75, 1, '{"user_cost": 0.5}', ?)`,
    ).bind(new Date().toISOString()).run();
    const run = await waitForRun(runId, { apiKey: key });
    expect(run.status).toBe('cancelled');
    expect(run.error).toContain('usd_per_day');
    expect(run.counts.done).toBeGreaterThanOrEqual(1);
    expect(run.counts.done).toBeLessThan(4);
    const results = (await pyBody(await as(key, `/v1/runs/${runId}/results`))) as { simulations: { reward_info: unknown }[] };
    expect(results.simulations.length).toBe(run.counts.done);
    expect(results.simulations.every((s) => s.reward_info !== null)).toBe(true);
    expect(await overQuota(await launch(key, scriptedRun({ task_ids: ['create_task_1'] })), 'usd_per_day')).toBeGreaterThan(0);
  });
});
