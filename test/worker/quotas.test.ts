// Tenants' quotas: set by the operator; a launch or schedule over one gets 429 naming it with Retry-After,
// nothing is created; a run that reaches the daily USD budget stops, its finished simulations kept. Reserved, not
// checked: 30 launches at once at every entry point create at most the quota, and usage never passes it.
import { env } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/worker/index.ts';
import { ApiErrorSchema, ApiKeyCreatedSchema, EpisodeBatchCreatedSchema, RerunSchema, TenantQuotasViewSchema } from '../../src/api/index.ts';
import type { TenantQuotasView, TenantUsage } from '../../src/api/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { launchRun } from '../../src/worker/runs/launch.ts';
import { reserveRun } from '../../src/worker/tenancy/quotas.ts';
import type { RunRow } from '../../src/worker/db/runs.ts';
import { encodeConfig } from '../../src/worker/db/runs.ts';
import { call, getRun, pyBody, waitForRun } from './support/api.ts';
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
    const priced = { llm_agent: SCRIPT_MODELS.pricedSlowAgent, llm_user: SCRIPT_MODELS.pricedUser, llm_judge: SCRIPT_MODELS.pricedJudge, llm_args_agent: { max_tokens: 100 }, llm_args_user: { max_tokens: 100 } };
    const response = await launch(key, scriptedRun({ ...priced, num_trials: 4, max_concurrency: 1, task_ids: ['create_task_1'] }));
    expect(response.status).toBe(202);
    const runId = await runIdOf(response);
    // Once one simulation is finished, the rest of the budget is spent by another call of the tenant's.
    for (let run = await getRun(runId, key); run.counts.done === 0 && run.status === 'running'; run = await getRun(runId, key)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await env.DB.prepare(
      `INSERT INTO model_calls (id, tenant_id, run_id, model, reserved_usd, cost_usd, created_at) VALUES ('q-budget-spend', 'q-budget', NULL, 'gpt-4.1', 1, 1, ?)`,
    ).bind(new Date().toISOString()).run();
    const run = await waitForRun(runId, { apiKey: key });
    expect(run.status).toBe('cancelled');
    expect(run.error).toContain('usd_per_day');
    expect(run.counts.done).toBeGreaterThanOrEqual(1);
    expect(run.counts.done).toBeLessThan(4);
    const results = (await pyBody(await as(key, `/v1/runs/${runId}/results`))) as { simulations: { reward_info: unknown; termination_reason: string; info: unknown }[] };
    expect(results.simulations.length).toBe(run.counts.done);
    // Each finished simulation is graded, but for the one whose model call the budget refused (to be re-run).
    const refused = results.simulations.filter((s) => s.reward_info === null);
    expect(refused.length).toBeLessThanOrEqual(1);
    expect(refused.every((s) => s.termination_reason === 'infrastructure_error' && JSON.stringify(s.info).includes('usd_per_day'))).toBe(true);
    expect(await overQuota(await launch(key, scriptedRun({ ...priced, task_ids: ['create_task_1'] })), 'usd_per_day')).toBeGreaterThan(0);
  });
});

/** Launches at once against one quota edge: enough that a check-then-create would let several past it. */
const AT_ONCE = 30;

const usageOf = async (tenant: string): Promise<TenantUsage> =>
  TenantQuotasViewSchema.parse(await pyBody(await call(`/v1/admin/tenants/${tenant}/quotas`))).usage;

/** Runs `burst` while reading the tenant's usage over and over; returns the burst's answers and every usage read. */
const watched = async <T>(tenant: string, burst: () => Promise<T>): Promise<{ answers: T; seen: TenantUsage[] }> => {
  const seen: TenantUsage[] = [];
  let done = false;
  const watcher = (async () => {
    while (!done) {
      seen.push(await usageOf(tenant));
      // A pause between reads: reads back to back would keep the launches waiting.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const answers = await burst().finally(() => {
    done = true;
  });
  await watcher;
  seen.push(await usageOf(tenant));
  return { answers, seen };
};

const statuses = (responses: readonly Response[]): Record<number, number> =>
  responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.status]: (counts[r.status] ?? 0) + 1 }), {});

const times = <T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

const trigger = async (scheduledTime: number): Promise<void> => {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime, cron: '* * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
};

describe('quotas under concurrent launches', () => {
  it(`runs: ${AT_ONCE} one-episode launches at once at episodes_per_day 10 → exactly 10 created`, async () => {
    const key = await tenantKey('q-race-runs');
    await setQuotas('q-race-runs', { episodes_per_day: 10 });
    const { answers, seen } = await watched('q-race-runs', () => times(AT_ONCE, () => launch(key, scriptedRun({ task_ids: ['create_task_1'] }))));
    expect(statuses(answers)).toEqual({ 202: 10, 429: AT_ONCE - 10 });
    for (const refused of answers.filter((r) => r.status === 429)) await overQuota(refused, 'episodes_per_day');
    expect(await runsOf('q-race-runs')).toBe(10);
    expect(Math.max(...seen.map((u) => u.episodes_today))).toBe(10);
  });

  it(`episodes: ${AT_ONCE} POST /v1/episodes at once at episodes_in_flight 3 → at most 3 in flight`, async () => {
    const key = await tenantKey('q-race-episodes');
    await setQuotas('q-race-episodes', { episodes_in_flight: 3 });
    const { answers, seen } = await watched('q-race-episodes', () =>
      times(AT_ONCE, () => as(key, '/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: SCRIPT_MODELS.user } })),
    );
    // The external agent never steps: the created episodes stay in flight.
    const created = answers.filter((r) => r.status !== 429);
    expect(created.length).toBe(3);
    for (const r of created) expect([201, 503]).toContain(r.status);
    for (const refused of answers.filter((r) => r.status === 429)) await overQuota(refused, 'episodes_in_flight');
    expect(await runsOf('q-race-episodes')).toBe(3);
    expect(Math.max(...seen.map((u) => u.episodes_in_flight))).toBe(3);
  });

  it(`episode batches: one past episodes_in_flight 5 is refused whole; ${AT_ONCE} batches of 2 at once → 2 created, 4 in flight`, async () => {
    const key = await tenantKey('q-race-batches');
    await setQuotas('q-race-batches', { episodes_in_flight: 5 });
    const batch = (num_trials: number) => as(key, '/v1/episodes/batch', { body: { domain: 'mock', task_ids: ['create_task_1'], num_trials, llm_user: SCRIPT_MODELS.user } });
    await overQuota(await batch(6), 'episodes_in_flight');
    expect(await runsOf('q-race-batches')).toBe(0);
    const { answers, seen } = await watched('q-race-batches', () => times(AT_ONCE, () => batch(2)));
    // The external agents never step: the created episodes stay in flight. A batch is reserved whole or not at all.
    expect(statuses(answers)).toEqual({ 201: 2, 429: AT_ONCE - 2 });
    for (const created of answers.filter((r) => r.status === 201)) expect(EpisodeBatchCreatedSchema.parse(await pyBody(created)).episode_ids).toHaveLength(2);
    for (const refused of answers.filter((r) => r.status === 429)) await overQuota(refused, 'episodes_in_flight');
    expect(await runsOf('q-race-batches')).toBe(2);
    expect(Math.max(...seen.map((u) => u.episodes_in_flight))).toBe(4);
  });

  it(`schedules: ${AT_ONCE} created at once at schedules 2 → exactly 2 kept`, async () => {
    const key = await tenantKey('q-race-sched');
    await setQuotas('q-race-sched', { schedules: 2 });
    const body = { name: 'nightly', interval_minutes: 60, run: scriptedRun({ task_ids: ['create_task_1'] }) };
    const { answers, seen } = await watched('q-race-sched', () => times(AT_ONCE, () => as(key, '/v1/schedules', { body })));
    expect(statuses(answers)).toEqual({ 201: 2, 429: AT_ONCE - 2 });
    for (const refused of answers.filter((r) => r.status === 429)) await overQuota(refused, 'schedules');
    expect(Math.max(...seen.map((u) => u.schedules))).toBe(2);
  });

  it(`reruns: one run's infrastructure errors are taken once; ${AT_ONCE} reruns at once stop at episodes_per_day`, async () => {
    const key = await tenantKey('q-race-rerun');
    const broken = scriptedRun({ llm_agent: SCRIPT_MODELS.brokenAgent, task_ids: ['create_task_1'], retry_delay: 0 });
    const runIds = await times(AT_ONCE, async () => runIdOf(await launch(key, broken)));
    for (const id of runIds) expect((await waitForRun(id, { apiKey: key })).counts.infra_error).toBe(1);
    const rerun = (id: string) => as(key, `/v1/runs/${id}/rerun-infra-errors`, { method: 'POST' });

    // Many reruns of one run: its one error is launched again once.
    const same = await times(AT_ONCE, () => rerun(runIds[0]!));
    expect(same.every((r) => r.status === 202)).toBe(true);
    expect((await Promise.all(same.map(async (r) => RerunSchema.parse(await r.json()).rerun))).reduce((a, b) => a + b, 0)).toBe(1);
    await waitForRun(runIds[0]!, { apiKey: key });

    // Launched today: the runs and that rerun. Room for 5 more.
    expect((await usageOf('q-race-rerun')).episodes_today).toBe(AT_ONCE + 1);
    await setQuotas('q-race-rerun', { episodes_per_day: AT_ONCE + 6 });
    const { answers, seen } = await watched('q-race-rerun', () => times(AT_ONCE, (i) => rerun(runIds[i]!)));
    expect(statuses(answers)).toEqual({ 202: 5, 429: AT_ONCE - 5 });
    for (const refused of answers.filter((r) => r.status === 429)) await overQuota(refused, 'episodes_per_day');
    expect(Math.max(...seen.map((u) => u.episodes_today))).toBe(AT_ONCE + 6);
    // A refused rerun removed nothing: its error is still there to re-run tomorrow.
    const infraErrors = await env.DB.prepare(
      `SELECT count(*) AS n FROM simulations s JOIN runs r ON r.id = s.run_id WHERE r.tenant_id = 'q-race-rerun' AND s.termination_reason = 'infrastructure_error'`,
    ).first<{ n: number }>();
    expect(infraErrors!.n).toBeGreaterThanOrEqual(AT_ONCE - 5);
  }, 180_000);

  it(`scheduled launches: ${AT_ONCE} cron ticks at once over 10 due schedules, episodes_per_day 5 → 5 runs`, async () => {
    const key = await tenantKey('q-race-cron');
    const body = { name: 'hourly', interval_minutes: 60, run: scriptedRun({ task_ids: ['create_task_1'] }) };
    await times(10, async () => expect((await as(key, '/v1/schedules', { body })).status).toBe(201));
    await setQuotas('q-race-cron', { episodes_per_day: 5 });
    const { seen } = await watched('q-race-cron', () => times(AT_ONCE, () => trigger(Date.now() + 1000)));
    expect(await runsOf('q-race-cron')).toBe(5);
    expect(Math.max(...seen.map((u) => u.episodes_today))).toBe(5);
    const launched = await env.DB.prepare(`SELECT count(DISTINCT schedule_id) AS n FROM runs WHERE tenant_id = 'q-race-cron'`).first<{ n: number }>();
    expect(launched!.n).toBe(5);
    const refused = await env.DB.prepare(`SELECT count(*) AS n FROM schedules WHERE tenant_id = 'q-race-cron' AND last_error LIKE 'Quota episodes_per_day reached%'`).first<{ n: number }>();
    expect(refused!.n).toBe(5);
  }, 180_000);

  it(`an Idempotency-Key sent ${AT_ONCE} times at once counts once, and is answered even once the quota is spent`, async () => {
    const key = await tenantKey('q-replay');
    await setQuotas('q-replay', { episodes_per_day: 2 });
    const body = scriptedRun({ task_ids: ['create_task_1'] });
    const send = (idempotencyKey: string) => as(key, '/v1/runs', { body, headers: { 'Idempotency-Key': idempotencyKey } });
    const first = await times(AT_ONCE, () => send('nightly-1'));
    expect(statuses(first)).toEqual({ 202: AT_ONCE });
    const ids = new Set(await Promise.all(first.map(runIdOf)));
    expect(ids.size).toBe(1);
    expect((await usageOf('q-replay')).episodes_today).toBe(1);
    expect((await send('nightly-2')).status).toBe(202);
    // The quota is spent: replays still get their run, new work does not.
    const replays = await times(AT_ONCE, () => send('nightly-1'));
    expect(statuses(replays)).toEqual({ 202: AT_ONCE });
    expect(new Set(await Promise.all(replays.map(runIdOf)))).toEqual(ids);
    await overQuota(await send('nightly-3'), 'episodes_per_day');
    expect(await runsOf('q-replay')).toBe(2);
  });

  it('a launch that fails to start gives its episodes back', async () => {
    await setQuotas('q-giveback', { episodes_per_day: 2 });
    const config = RunConfigSchema.parse(scriptedRun({ task_ids: ['create_task_1'], num_trials: 2 }));
    // The same episode twice: the run object cannot record it, so the run is recorded, then fails to start.
    const twice = [{ task_id: 'create_task_1', trial: 0 }, { task_id: 'create_task_1', trial: 0 }];
    await expect(launchRun(env, config, twice, { tenant: 'q-giveback' })).rejects.toThrow();
    const failed = await env.DB.prepare(`SELECT status FROM runs WHERE tenant_id = 'q-giveback'`).first<{ status: string }>();
    expect(failed!.status).toBe('failed');
    expect(await usageOf('q-giveback')).toMatchObject({ episodes_today: 0, episodes_in_flight: 0 });
    const launched = await launchRun(env, config, [{ task_id: 'create_task_1', trial: 0 }, { task_id: 'create_task_1', trial: 1 }], { tenant: 'q-giveback' });
    expect(launched).toMatchObject({ run: { status: 'running' }, created: true });
  });

  it('a reservation over a quota answers its refusal as a value (quota, usage, limit, retry-after), writing nothing', async () => {
    await setQuotas('q-value', { episodes_in_flight: 1 });
    const nowMs = Date.now();
    const row = (id: string, total: number): RunRow => ({
      id, tenantId: 'q-value', status: 'running', config: encodeConfig(RunConfigSchema.parse(scriptedRun())), total, scheduleId: null,
      idempotencyKey: null, requestHash: null, error: null, agentHeadersCiphertext: null, rounds: null, stopReason: null, createdAt: new Date(nowMs).toISOString(), updatedAt: new Date(nowMs).toISOString(),
    });
    const refusal = await reserveRun(env, row('q-value-1', 3), nowMs);
    expect(refusal).toEqual({
      kind: 'quota',
      quota: 'episodes_in_flight',
      message: 'Quota episodes_in_flight reached: 0 episodes in flight, 3 more asked, 1 allowed',
      issues: [{ path: 'episodes_in_flight', message: '0 episodes in flight, 3 more asked, 1 allowed' }],
      usage: { episodes_in_flight: 0, episodes_today: 0, schedules: 0, usd_today: 0 },
      limit: 1,
      retry_after_seconds: 60,
    });
    expect(await runsOf('q-value')).toBe(0);
    expect(await reserveRun(env, row('q-value-2', 1), nowMs)).toMatchObject({ created: true, run: { id: 'q-value-2' } });
  });
});
