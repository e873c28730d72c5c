// Defences of the shared service: requests that would start unbounded work, misspelt or oversized bodies,
// schedules that cannot launch, orphan runs, idempotency namespaces, quiet event streams and wrong methods.
import { env, exports } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/worker/index.ts';
import { ApiErrorSchema, ScheduleSchema } from '../../src/api/index.ts';
import type { Schedule } from '../../src/api/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { encodeConfig, insertRun } from '../../src/worker/db/runs.ts';
import { insertSchedule } from '../../src/worker/db/schedules.ts';
import { ORPHAN_AGE_MS } from '../../src/worker/runs/orphans.ts';
import { BASE, call, getRun, pyBody, startRun, waitForRun } from './support/api.ts';
import { API_KEY, scriptedRun } from './support/script.ts';

const errorOf = async (response: Response) => ApiErrorSchema.parse(await response.json()).error;

const refusal = async (response: Response, status: number, code: string, path: string) => {
  expect(response.status).toBe(status);
  const error = await errorOf(response);
  expect(error.code).toBe(code);
  expect(error.issues?.map((i) => i.path)).toContain(path);
  return error;
};

const runCount = async (): Promise<number> => (await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>())!.n;

const trigger = async (scheduledTime: number): Promise<void> => {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime, cron: '* * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
};

/** A run row as a launch cut short leaves it: in D1, `running`, its RunDO never started. */
const orphanRun = async (overrides: Record<string, unknown> = {}, createdAt = new Date().toISOString(), tenantId = 'operator'): Promise<string> => {
  const id = crypto.randomUUID();
  await insertRun(env.DB, {
    id, tenantId, status: 'running', config: encodeConfig(RunConfigSchema.parse({ ...scriptedRun({ task_ids: ['create_task_1'] }), ...overrides })),
    total: 1, scheduleId: null, idempotencyKey: null, requestHash: null, error: null, createdAt, updatedAt: createdAt,
  });
  return id;
};

/** A schedule as an older version (or a direct write) may have stored it, due `ageMs` ago. */
const storedSchedule = async (run: Record<string, unknown> | string, intervalMinutes = 60, ageMs = 60_000): Promise<string> => {
  const id = crypto.randomUUID();
  const past = new Date(Date.now() - ageMs).toISOString();
  const runConfig = typeof run === 'string' ? run : encodeConfig(RunConfigSchema.parse(run));
  await insertSchedule(env.DB, {
    id, tenantId: 'operator', name: `stored ${id}`, intervalMinutes, enabled: true, runConfig,
    nextRunAt: past, lastRunAt: null, lastRunId: null, lastError: null, createdAt: past, updatedAt: past,
  });
  return id;
};

const getSchedule = async (id: string): Promise<Schedule> => ScheduleSchema.parse(await pyBody(await call(`/v1/schedules/${id}`)));

describe('operator limits', () => {
  for (const [field, value, limit] of [
    ['num_trials', 1_000_000, 'LIMIT_MAX_TRIALS'],
    ['max_steps', 100_000, 'LIMIT_MAX_STEPS'],
    ['max_errors', 100_000, 'LIMIT_MAX_ERRORS'],
    ['max_retries', 1_000, 'LIMIT_MAX_RETRIES'],
    ['max_concurrency', 100_000, 'LIMIT_MAX_CONCURRENCY'],
    ['retry_delay', 1e9, 'LIMIT_MAX_RETRY_DELAY_SECONDS'],
    ['timeout', 1e9, 'LIMIT_MAX_TIMEOUT_SECONDS'],
  ] as const) {
    it(`${field} over ${limit} → 400 limit_exceeded naming both, nothing created`, async () => {
      const before = await runCount();
      const error = await refusal(await call('/v1/runs', { body: scriptedRun({ [field]: value }) }), 400, 'limit_exceeded', field);
      expect(error.message).toContain(limit);
      expect(await runCount()).toBe(before);
    });
  }

  for (const [args, path, limit] of [
    [{ n: 5 }, 'llm_args_agent.n', 'LIMIT_MAX_CHOICES'],
    [{ max_tokens: 10_000_000 }, 'llm_args_agent.max_tokens', 'LIMIT_MAX_TOKENS'],
    [{ extra_body: { max_tokens: 10_000_000 } }, 'llm_args_agent.max_tokens', 'LIMIT_MAX_TOKENS'],
    [{ num_retries: 1_000 }, 'llm_args_agent.num_retries', 'LIMIT_MAX_LLM_RETRIES'],
  ] as const) {
    it(`llm_args ${JSON.stringify(args)} → 400 naming ${limit}`, async () => {
      const error = await refusal(await call('/v1/runs', { body: scriptedRun({ llm_args_agent: args }) }), 400, 'limit_exceeded', path);
      expect(error.message).toContain(limit);
    });
  }

  it('a schedule over a limit is refused at creation and at PATCH', async () => {
    await refusal(await call('/v1/schedules', { body: { name: 'big', interval_minutes: 60, run: scriptedRun({ num_trials: 1_000_000 }) } }), 400, 'limit_exceeded', 'run.num_trials');
    await refusal(await call('/v1/schedules', { body: { name: 'never', interval_minutes: 9007199254740991, run: scriptedRun() } }), 400, 'invalid_request', 'interval_minutes');
    const created = await call('/v1/schedules', { body: { name: 'ok', interval_minutes: 60, run: scriptedRun() } });
    const { id } = ScheduleSchema.parse(await pyBody(created));
    await refusal(await call(`/v1/schedules/${id}`, { method: 'PATCH', body: { interval_minutes: 9007199254740991 } }), 400, 'invalid_request', 'interval_minutes');
    await refusal(await call(`/v1/schedules/${id}`, { method: 'PATCH', body: { run: scriptedRun({ num_trials: 1_000_000 }) } }), 400, 'limit_exceeded', 'run.num_trials');
  });
});

describe('request bodies', () => {
  it('an unknown field → 400 naming it, nothing created', async () => {
    const before = await runCount();
    const error = await refusal(await call('/v1/runs', { body: { ...scriptedRun(), num_trial: 5 } }), 400, 'invalid_request', '');
    expect(error.message).toContain('num_trial');
    expect(await runCount()).toBe(before);
    const schedule = await call('/v1/schedules', { body: { name: 'x', interval_minutes: 5, run: scriptedRun(), every: 5 } });
    expect((await errorOf(schedule)).message).toContain('every');
  });

  it('decimal seconds are accepted as the reference takes them', async () => {
    const id = await startRun(scriptedRun({ task_ids: ['create_task_1'], timeout: 30.5, retry_delay: 1.5 }));
    const run = await getRun(id);
    expect(run.config).toMatchObject({ timeout: 30.5, retry_delay: 1.5 });
    await waitForRun(id);
  });

  it('a wrong type is named in JSON terms, never an internal class', async () => {
    const error = await refusal(await call('/v1/runs', { body: '{"domain": "mock", "max_steps": 5.5}' }), 400, 'invalid_request', 'max_steps');
    expect(error.message).not.toContain('PyFloat');
    const typed = await refusal(await call('/v1/runs', { body: '{"domain": "mock", "llm_agent": 1.5}' }), 400, 'invalid_request', 'llm_agent');
    expect(typed.message).toBe('llm_agent: Invalid input: expected string');
  });

  it('a body over LIMIT_MAX_BODY_BYTES → 413, nothing created', async () => {
    const before = await runCount();
    const response = await call('/v1/runs', { body: JSON.stringify({ ...scriptedRun(), llm_agent: 'x'.repeat(2_000_000) }) });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('payload_too_large');
    expect(await runCount()).toBe(before);
  });

  it('an oversized name → 400 naming the field', async () => {
    await refusal(await call('/v1/runs', { body: scriptedRun({ llm_agent: 'm'.repeat(10_000) }) }), 400, 'invalid_request', 'llm_agent');
  });

  it('10,000 unknown task ids are named up to ten, with the count of the rest', async () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `no_such_task_${i}`);
    const error = await refusal(await call('/v1/runs', { body: scriptedRun({ task_ids: ids }) }), 400, 'invalid_request', 'task_ids');
    expect(error.message).toContain('no_such_task_9 and 9990 more');
    expect(error.message).not.toContain('no_such_task_10,');
  });
});

describe('strict bodies', () => {
  let scheduleId = '';
  beforeAll(async () => {
    scheduleId = await storedSchedule(scriptedRun(), 60, -3_600_000);
  });
  /** Every route that reads a body, with a body it would accept. */
  const bodyRoutes = (): [method: string, path: string, body: unknown][] => [
    ['POST', '/v1/runs', scriptedRun({ task_ids: ['create_task_1'] })],
    ['POST', '/v1/episodes', { domain: 'mock', task_id: 'create_task_1' }],
    ['POST', '/v1/episodes/unknown/step', { step: 0, message: { role: 'assistant', content: 'hi' } }],
    ['POST', '/v1/schedules', { name: 'strict', interval_minutes: 60, run: scriptedRun() }],
    ['PATCH', `/v1/schedules/${scheduleId}`, { enabled: false }],
    ['PUT', '/v1/provider-credentials/openai', { api_key: 'sk-strict' }],
    ['POST', '/v1/admin/keys', { tenant: 'strict-bodies', name: 'k' }],
    ['PUT', '/v1/admin/tenants/strict-bodies/quotas', { episodes_per_day: 5 }],
  ];

  it('a body not sent as application/json → 415 on every body route, nothing created', async () => {
    const before = await runCount();
    for (const [method, path, body] of bodyRoutes()) {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp', null]) {
        const response = await exports.default.fetch(`${BASE}${path}`, {
          method,
          headers: { authorization: `Bearer ${API_KEY}`, ...(contentType === null ? {} : { 'content-type': contentType }) },
          body: JSON.stringify(body),
        });
        expect(response.status, `${method} ${path} as ${contentType}`).toBe(415);
        expect((await errorOf(response)).code).toBe('unsupported_media_type');
      }
    }
    expect(await runCount()).toBe(before);
    expect((await call('/v1/runs', { body: scriptedRun({ task_ids: ['nope'] }), headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(400);
  });

  it('a duplicate key → 400 naming it, at any depth, on every body route', async () => {
    for (const [method, path, body] of bodyRoutes()) {
      const [first] = Object.keys(body as object);
      const text = JSON.stringify(body).replace('{', `{"${first}": null, `);
      await refusal(await call(path, { method, body: text }), 400, 'invalid_request', first!);
    }
    const nested = '{"name": "n", "interval_minutes": 60, "run": {"domain": "mock", "seed": 1, "seed": 2}}';
    expect((await refusal(await call('/v1/schedules', { body: nested }), 400, 'invalid_request', 'run.seed')).message).toContain('Duplicate key');
  });

  it('a BOM before the body → 400; the quotas PUT leaves the quotas as they were', async () => {
    const quotas = '/v1/admin/tenants/bom-tenant/quotas';
    expect((await call(quotas, { method: 'PUT', body: { episodes_per_day: 5, schedules: 2 } })).status).toBe(200);
    const error = await refusal(await call(quotas, { method: 'PUT', body: '\uFEFF{}' }), 400, 'invalid_request', '');
    expect(error.message).toContain('BOM');
    expect(await pyBody(await call(quotas))).toMatchObject({ quotas: { episodes_per_day: 5, schedules: 2 } });
    await refusal(await call('/v1/runs', { body: `\uFEFF${JSON.stringify(scriptedRun())}` }), 400, 'invalid_request', '');
  });

  it('control characters in names, ids and keys → 400 naming the field, nothing created', async () => {
    const before = await runCount();
    const cases: [string, string, unknown, string][] = [
      ['POST', '/v1/runs', scriptedRun({ llm_agent: 'gpt\u0000-4' }), 'llm_agent'],
      ['POST', '/v1/runs', scriptedRun({ llm_user: 'user\nmodel' }), 'llm_user'],
      ['POST', '/v1/runs', scriptedRun({ task_ids: ['create_task_1\u0000'] }), 'task_ids.0'],
      ['POST', '/v1/runs', scriptedRun({ domain: 'mock\u007f' }), 'domain'],
      ['POST', '/v1/episodes', { domain: 'mock', task_id: 'create\ttask_1' }, 'task_id'],
      ['POST', '/v1/schedules', { name: 'nightly\u0000', interval_minutes: 60, run: scriptedRun() }, 'name'],
      ['POST', '/v1/admin/keys', { tenant: 'strict-bodies', name: 'key\u0000' }, 'name'],
      ['PUT', '/v1/provider-credentials/openai', { api_key: 'sk-\u0000secret' }, 'api_key'],
    ];
    for (const [method, path, body, field] of cases) {
      const error = await refusal(await call(path, { method, body }), 400, 'invalid_request', field);
      expect(error.message).toContain(`${field}: No control characters`);
    }
    expect(await runCount()).toBe(before);
  });

  it('integer fields take whole floats as pydantic does; a fraction or an out-of-range number is named with its rule', async () => {
    const text = JSON.stringify(scriptedRun({ task_ids: ['create_task_1'] })).replace('{', '{"num_trials": 1.0, "max_steps": 30.0, ');
    const id = await startRun(text);
    const run = await getRun(id);
    expect(run.config).toMatchObject({ num_trials: 1, max_steps: 30 });
    await waitForRun(id);
    const fraction = await refusal(await call('/v1/runs', { body: '{"domain": "mock", "num_trials": 1.5}' }), 400, 'invalid_request', 'num_trials');
    expect(fraction.message).toBe('num_trials: Invalid input: expected int');
    const huge = await refusal(await call('/v1/runs', { body: '{"domain": "mock", "seed": 1e300}' }), 400, 'invalid_request', 'seed');
    expect(huge.message).toMatch(/^seed: Too big: expected int to be <=\d+$/);
    const negative = await refusal(await call('/v1/schedules', { body: { name: 'n', interval_minutes: -1.0, run: scriptedRun() } }), 400, 'invalid_request', 'interval_minutes');
    expect(negative.message).toBe('interval_minutes: Too small: expected number to be >0');
    expect((await call('/v1/admin/tenants/whole-floats/quotas', { method: 'PUT', body: '{"episodes_per_day": 3.0}' })).status).toBe(200);
  });
});

describe('idempotency keys', () => {
  it('an empty key is refused, not shared by every caller', async () => {
    await refusal(await call('/v1/runs', { body: scriptedRun(), headers: { 'Idempotency-Key': '' } }), 400, 'invalid_request', 'Idempotency-Key');
    await refusal(await call('/v1/runs', { body: scriptedRun(), headers: { 'Idempotency-Key': '   ' } }), 400, 'invalid_request', 'Idempotency-Key');
  });

  it("a caller's key cannot take a scheduled launch's place", async () => {
    const created = await call('/v1/schedules', { body: { name: 'guarded', interval_minutes: 60, run: scriptedRun({ task_ids: ['create_task_1'] }) } });
    const schedule = ScheduleSchema.parse(await pyBody(created));
    const squatter = await startRun(scriptedRun({ task_ids: ['create_task_1'] }), { 'Idempotency-Key': `schedule:${schedule.id}:${schedule.next_run_at}` });
    await trigger(Date.parse(schedule.next_run_at) + 1000);
    const launched = (await getSchedule(schedule.id)).last_run_id;
    expect(launched).not.toBeNull();
    expect(launched).not.toBe(squatter);
    expect((await waitForRun(launched!)).schedule_id).toBe(schedule.id);
    await waitForRun(squatter);
  });
});

describe('cron isolation', () => {
  it('a schedule that cannot launch records why; the schedules due after it still launch', async () => {
    // Due in this order: a run config that no longer decodes, one over the limits, then two good ones (one
    // with an interval stored before intervals were bounded).
    const corrupt = await storedSchedule('{"domain": ', 60, 40_000);
    const big = await storedSchedule({ ...scriptedRun(), num_trials: 1_000_000 }, 60, 30_000);
    const unbounded = await storedSchedule(scriptedRun({ task_ids: ['create_task_1'] }), 9007199254740991, 20_000);
    const good = await storedSchedule(scriptedRun({ task_ids: ['create_task_1'] }), 60, 10_000);
    await trigger(Date.now());

    expect((await env.DB.prepare('SELECT last_error FROM schedules WHERE id = ?').bind(corrupt).first<{ last_error: string }>())!.last_error).toBeTruthy();
    const failed = await getSchedule(big);
    expect(failed.last_run_id).toBeNull();
    expect(failed.last_error).toContain('LIMIT_MAX_TRIALS');
    expect(Date.parse(failed.next_run_at)).toBeGreaterThan(Date.now());

    for (const id of [unbounded, good]) {
      const launched = await getSchedule(id);
      expect(launched.last_error).toBeNull();
      expect((await waitForRun(launched.last_run_id!)).status).toBe('completed');
    }
    await env.DB.prepare('DELETE FROM schedules WHERE id = ?').bind(corrupt).run();
  });
});

describe('orphan runs', () => {
  it('the cron finishes the launch of a run left unstarted', async () => {
    const id = await orphanRun({}, new Date(Date.now() - 2 * ORPHAN_AGE_MS).toISOString());
    expect((await getRun(id)).status).toBe('running');
    await trigger(Date.now());
    const run = await waitForRun(id);
    expect(run).toMatchObject({ status: 'completed', counts: { done: 1 } });
  });

  it('an orphan that cannot start ends failed with the reason', async () => {
    const id = await orphanRun({ task_ids: ['gone_task'] }, new Date(Date.now() - 2 * ORPHAN_AGE_MS).toISOString());
    await trigger(Date.now());
    const run = await getRun(id);
    expect(run.status).toBe('failed');
    expect(run.error).toContain('gone_task');
    expect((await call(`/v1/runs/${id}/cancel`, { method: 'POST' })).status).toBe(409);
  });

  it('a launch still young is left alone', async () => {
    const id = await orphanRun();
    await trigger(Date.now());
    expect((await getRun(id)).status).toBe('running');
    await call(`/v1/runs/${id}/cancel`, { method: 'POST' });
  });

  it('cancel ends an orphan, and its event stream ends with it', async () => {
    const id = await orphanRun();
    const events = await call(`/v1/runs/${id}/events`);
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    // A quiet stream still sends its heartbeat (every 200 ms in the tests).
    while (!text.includes(': heartbeat')) text += (await reader.read()).value ?? '';
    const cancelled = await call(`/v1/runs/${id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect((await getRun(id)).status).toBe('cancelled');
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    expect(text).toContain('"status": "cancelled"'.replace(': ', ':'));
  });
});

describe('event streams', () => {
  it('an open stream ends once its key is revoked', async () => {
    const created = (await pyBody(await call('/v1/admin/keys', { body: { tenant: 'stream-watcher', name: 'stream watcher' } }))) as { id: string; key: string };
    const id = await orphanRun({}, new Date().toISOString(), 'stream-watcher');
    const events = await call(`/v1/runs/${id}/events`, { headers: { authorization: `Bearer ${created.key}` } });
    expect(events.status).toBe(200);
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(': heartbeat')) text += (await reader.read()).value ?? '';
    expect((await call(`/v1/admin/keys/${created.id}`, { method: 'DELETE' })).status).toBe(200);
    // The run goes on; the stream ends within a heartbeat or two (200 ms in the tests).
    const ended = await Promise.race([
      (async () => {
        while (!(await reader.read()).done);
        return true;
      })(),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000)),
    ]);
    expect(ended).toBe(true);
    const run = await env.DB.prepare('SELECT status FROM runs WHERE id = ?').bind(id).first<{ status: string }>();
    expect(run?.status).toBe('running');
    await env.DB.prepare(`UPDATE runs SET status = 'cancelled' WHERE id = ?`).bind(id).run();
  });
});

describe('methods', () => {
  it('a known path with another method → 405 with Allow; an unknown path → 404', async () => {
    const wrong = await call('/v1/runs', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    expect((await errorOf(wrong)).code).toBe('method_not_allowed');
    const onItem = await call('/v1/schedules/abc', { method: 'POST' });
    expect(onItem.status).toBe(405);
    expect(onItem.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    expect((await call('/v1/nowhere')).status).toBe(404);
  });
});
