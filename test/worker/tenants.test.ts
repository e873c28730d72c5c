// Tenants: the operator issues API keys; each tenant sees, changes and infers only its own runs, simulations
// and schedules (anything else is 404), and failed authentications are rate-limited per client.
import { env } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/worker/index.ts';
import { ApiErrorSchema, ApiKeyCreatedSchema, ApiKeyListSchema, RunListSchema, ScheduleListSchema, ScheduleSchema } from '../../src/api/index.ts';
import type { ApiKeyCreated } from '../../src/api/index.ts';
import { call, pyBody, waitForRun, wellInsideLimiterWindow } from './support/api.ts';
import type { CallOptions } from './support/api.ts';
import { scriptedRun } from './support/script.ts';

const as = (key: string, path: string, options: CallOptions = {}) =>
  call(path, { ...options, headers: { ...options.headers, authorization: `Bearer ${key}` } });

const createKey = async (tenant: string, name = `${tenant} CI`): Promise<ApiKeyCreated> => {
  const response = await call('/v1/admin/keys', { body: { tenant, name } });
  expect(response.status).toBe(201);
  return ApiKeyCreatedSchema.parse(await pyBody(response));
};

const startAs = async (key: string, body: unknown, headers: Record<string, string> = {}): Promise<string> => {
  const response = await as(key, '/v1/runs', { body, headers });
  expect(response.status).toBe(202);
  return (JSON.parse(await response.text()) as { run_id: string }).run_id;
};

let acme: ApiKeyCreated;
let globex: ApiKeyCreated;
let acmeRun: string;
let acmeSimulation: string;
let acmeSchedule: string;

beforeAll(async () => {
  acme = await createKey('acme');
  globex = await createKey('globex');
  acmeRun = await startAs(acme.key, scriptedRun({ task_ids: ['create_task_1'] }));
  expect((await waitForRun(acmeRun, { apiKey: acme.key })).status).toBe('completed');
  const results = (await pyBody(await as(acme.key, `/v1/runs/${acmeRun}/results`))) as { simulations: { id: string }[] };
  acmeSimulation = results.simulations[0]!.id;
  const schedule = await as(acme.key, '/v1/schedules', { body: { name: 'acme nightly', interval_minutes: 60, run: scriptedRun() } });
  acmeSchedule = ScheduleSchema.parse(await pyBody(schedule)).id;
}, 60_000);

describe('API keys', () => {
  it('a key is shown once: listed by prefix only, stored only as its hash', async () => {
    expect(acme.key).toMatch(/^t2e_[A-Za-z0-9_-]{43}$/);
    const list = ApiKeyListSchema.parse(await pyBody(await call('/v1/admin/keys')));
    const listed = list.keys.find((k) => k.id === acme.id)!;
    expect(listed).toMatchObject({ tenant: 'acme', revoked_at: null, prefix: acme.key.slice(0, 10) });
    expect(JSON.stringify(list)).not.toContain(acme.key);
    const rows = await env.DB.prepare('SELECT * FROM api_keys').all();
    expect(JSON.stringify(rows.results)).not.toContain(acme.key);
  });

  it('only the operator administers keys; to a tenant the routes do not exist', async () => {
    expect((await as(acme.key, '/v1/admin/keys')).status).toBe(404);
    expect((await as(acme.key, '/v1/admin/keys', { body: { tenant: 'acme', name: 'more' } })).status).toBe(404);
    expect((await as(acme.key, `/v1/admin/keys/${globex.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('a bad tenant name or an unknown field → 400 naming it', async () => {
    for (const [body, path] of [[{ tenant: 'Bad Name', name: 'x' }, 'tenant'], [{ tenant: 'operator', name: 'x' }, 'tenant'], [{ tenant: 'ok', name: 'x', role: 'admin' }, '']] as const) {
      const response = await call('/v1/admin/keys', { body });
      expect(response.status).toBe(400);
      expect(ApiErrorSchema.parse(await response.json()).error.issues?.map((i) => i.path)).toContain(path);
    }
  });

  it('a revoked key is refused from then on', async () => {
    const temp = await createKey('initech');
    expect((await as(temp.key, '/v1/runs')).status).toBe(200);
    const revoked = await call(`/v1/admin/keys/${temp.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect(((await pyBody(revoked)) as { revoked_at: string | null }).revoked_at).not.toBeNull();
    expect((await as(temp.key, '/v1/runs')).status).toBe(401);
  });
});

describe('tenant isolation', () => {
  it('the owner reads its run, results, events and simulation', async () => {
    expect((await as(acme.key, `/v1/runs/${acmeRun}`)).status).toBe(200);
    expect((await as(acme.key, `/v1/simulations/${acmeSimulation}`)).status).toBe(200);
    const events = await as(acme.key, `/v1/runs/${acmeRun}/events`);
    expect(events.status).toBe(200);
    expect(await events.text()).toContain('event: status');
    const list = RunListSchema.parse(await pyBody(await as(acme.key, '/v1/runs')));
    expect(list.runs.map((r) => r.id)).toEqual([acmeRun]);
  });

  for (const [method, path] of [
    ['GET', () => `/v1/runs/${acmeRun}`],
    ['GET', () => `/v1/runs/${acmeRun}/results`],
    ['GET', () => `/v1/runs/${acmeRun}/events`],
    ['POST', () => `/v1/runs/${acmeRun}/cancel`],
    ['POST', () => `/v1/runs/${acmeRun}/rerun-infra-errors`],
    ['GET', () => `/v1/compare?a=${acmeRun}&b=${acmeRun}`],
    ['GET', () => `/v1/simulations/${acmeSimulation}`],
    ['GET', () => `/v1/schedules/${acmeSchedule}`],
    ['PATCH', () => `/v1/schedules/${acmeSchedule}`],
    ['DELETE', () => `/v1/schedules/${acmeSchedule}`],
  ] as const) {
    it(`another tenant's ${method} ${path().replace(/[0-9a-f-]{36}/g, ':id')} → 404, exactly as for an unknown id`, async () => {
      for (const key of [globex.key, 'test-api-key']) {
        const response = await as(key, path(), method === 'PATCH' ? { method, body: { enabled: false } } : { method });
        expect(response.status).toBe(404);
        const unknown = await as(key, path().replace(/[0-9a-f-]{36}/, '00000000-0000-0000-0000-000000000000'), method === 'PATCH' ? { method, body: { enabled: false } } : { method });
        expect(ApiErrorSchema.parse(await response.json()).error.message).toBe(
          ApiErrorSchema.parse(await unknown.json()).error.message.replace('00000000-0000-0000-0000-000000000000', path().match(/[0-9a-f-]{36}/)![0]),
        );
      }
    });
  }

  it("another tenant's lists hold none of the owner's runs or schedules", async () => {
    const runs = RunListSchema.parse(await pyBody(await as(globex.key, '/v1/runs?limit=200')));
    expect(runs.runs.map((r) => r.id)).not.toContain(acmeRun);
    const schedules = ScheduleListSchema.parse(await pyBody(await as(globex.key, '/v1/schedules')));
    expect(schedules.schedules.map((s) => s.id)).not.toContain(acmeSchedule);
    // The owner's schedule is untouched by the refused PATCH and DELETE.
    expect(ScheduleSchema.parse(await pyBody(await as(acme.key, `/v1/schedules/${acmeSchedule}`))).enabled).toBe(true);
  });

  it('the same Idempotency-Key in two tenants makes two runs and reveals nothing', async () => {
    const body = scriptedRun({ task_ids: ['create_task_1'] });
    const first = await startAs(acme.key, body, { 'Idempotency-Key': 'nightly-1' });
    const second = await startAs(globex.key, scriptedRun({ task_ids: ['update_task_1'] }), { 'Idempotency-Key': 'nightly-1' });
    expect(second).not.toBe(first);
  });

  it('a scheduled launch belongs to the schedule’s tenant', async () => {
    const schedule = ScheduleSchema.parse(await pyBody(await as(globex.key, `/v1/schedules`, { body: { name: 'globex hourly', interval_minutes: 60, run: scriptedRun({ task_ids: ['create_task_1'] }) } })));
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.parse(schedule.next_run_at) + 1000, cron: '* * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    const launched = ScheduleSchema.parse(await pyBody(await as(globex.key, `/v1/schedules/${schedule.id}`))).last_run_id!;
    expect((await as(globex.key, `/v1/runs/${launched}`)).status).toBe(200);
    expect((await as(acme.key, `/v1/runs/${launched}`)).status).toBe(404);
  });
});

describe('failed authentication', () => {
  it('is rate-limited per client: 429 with Retry-After, other clients unaffected', async () => {
    await wellInsideLimiterWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await as(`t2e_wrong${i}`, '/v1/runs', { headers: { 'cf-connecting-ip': '203.0.113.9' } })).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const throttled = await as('t2e_wrong', '/v1/runs', { headers: { 'cf-connecting-ip': '203.0.113.9' } });
    expect(throttled.headers.get('retry-after')).toBe('60');
    expect(ApiErrorSchema.parse(await throttled.json()).error.code).toBe('rate_limited');
    expect((await as('t2e_wrong', '/v1/runs', { headers: { 'cf-connecting-ip': '203.0.113.10' } })).status).toBe(401);
  });
});
