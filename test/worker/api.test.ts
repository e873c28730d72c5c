// The API's contract at its edges: validation (400 naming the field and the reason), unknown ids (404),
// bearer authentication, listing and Idempotency-Key.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, RunListSchema } from '../../src/api/index.ts';
import { call, getRun, pyBody, startRun } from './support/api.ts';
import { scriptedRun } from './support/script.ts';

const errorOf = async (response: Response) => ApiErrorSchema.parse(await response.json()).error;

const rejects = async (body: unknown, path: string, reason: RegExp) => {
  const response = await call('/v1/runs', { body });
  expect(response.status).toBe(400);
  const error = await errorOf(response);
  expect(error.code).toBe('invalid_request');
  expect(error.issues?.map((i) => i.path)).toContain(path);
  expect(error.message).toMatch(new RegExp(`${path}: ${reason.source}`));
};

describe('POST /v1/runs validation', () => {
  it('a missing domain → 400 naming `domain`', () => rejects({ num_trials: 1 }, 'domain', /Invalid input/));
  it('num_trials 0 → 400 naming `num_trials` and the bound', () => rejects(scriptedRun({ num_trials: 0 }), 'num_trials', /Too small/));
  it('an unknown agent kind → 400 naming `agent`', () => rejects({ ...scriptedRun(), agent: 'llm_agent_x' }, 'agent', /Invalid option/));
  it('a solo agent with a user simulator → 400 naming `user`', () =>
    rejects(scriptedRun({ agent: 'llm_agent_solo' }), 'user', /llm_agent_solo runs with dummy_user/));
  it('an unknown domain → 400 naming `domain`', () => rejects(scriptedRun({ domain: 'nowhere' }), 'domain', /Unknown domain nowhere/));
  it('an unknown task id → 400 naming `task_ids`', () => rejects(scriptedRun({ task_ids: ['no_such_task'] }), 'task_ids', /Not all tasks were found for task set mock: missing no_such_task/));
  it('an unknown split → 400 naming `task_split_name`', () =>
    rejects(scriptedRun({ task_split_name: 'nope' }), 'task_split_name', /Invalid task split name: nope/));

  it('a task set the reference cannot load → 400 naming `task_set_name` and why', () =>
    rejects(scriptedRun({ task_set_name: 'telecom_full' }), 'task_set_name', /task set telecom_full cannot be loaded: .*TypeError/));
  it("another domain's task set → 400 naming `task_set_name`", () =>
    rejects(scriptedRun({ task_set_name: 'airline' }), 'task_set_name', /task set airline holds the airline domain's tasks/));
  it('skipping every episode → 400 naming `skip_episodes`; a bad entry too', async () => {
    await rejects(scriptedRun({ task_ids: ['create_task_1'], skip_episodes: [{ task_id: 'create_task_1', trial: 0 }] }), 'skip_episodes', /Every episode is skipped/);
    await rejects(scriptedRun({ skip_episodes: [{ task_id: 'create_task_1', trial: -1 }] }), 'skip_episodes.0.trial', /Too small/);
  });

  it('a body that is not JSON → 400 invalid_request', async () => {
    const response = await call('/v1/runs', { body: '{"domain": ' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^Body is not valid JSON/);
  });

  it('a bad list query → 400 naming `limit`', async () => {
    const response = await call('/v1/runs?limit=0');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).issues?.[0]?.path).toBe('limit');
  });
});

describe('unknown ids', () => {
  for (const [method, path] of [
    ['GET', '/v1/runs/nope'],
    ['GET', '/v1/runs/nope/results'],
    ['GET', '/v1/runs/nope/events'],
    ['POST', '/v1/runs/nope/cancel'],
    ['POST', '/v1/runs/nope/rerun-infra-errors'],
    ['GET', '/v1/simulations/nope'],
    ['GET', '/v1/schedules/nope'],
    ['DELETE', '/v1/schedules/nope'],
  ] as const) {
    it(`${method} ${path} → 404 not_found`, async () => {
      const response = await call(path, { method });
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('not_found');
    });
  }
});

describe('authentication', () => {
  it('a request without a key → 401 unauthorized', async () => {
    const response = await call('/v1/runs', { anonymous: true });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('unauthorized');
  });

  it('a wrong key → 401, and nothing is launched', async () => {
    const before = await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>();
    const response = await call('/v1/runs', { anonymous: true, body: scriptedRun(), headers: { authorization: 'Bearer wrong' } });
    expect(response.status).toBe(401);
    const after = await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });
});

describe('launching', () => {
  it('answers 202 with the run id and its Location; the run is listed', async () => {
    const response = await call('/v1/runs', { body: scriptedRun({ task_ids: ['create_task_1'] }) });
    expect(response.status).toBe(202);
    const created = (await response.json()) as { run_id: string; status: string };
    expect(created.status).toBe('running');
    expect(response.headers.get('location')).toBe(`/v1/runs/${created.run_id}`);
    const list = RunListSchema.parse(await pyBody(await call('/v1/runs?limit=200')));
    expect(list.runs.map((r) => r.id)).toContain(created.run_id);
  });

  it('a resumed run leaves out its skipped episodes; its config records the task set', async () => {
    const id = await startRun(
      scriptedRun({ task_set_name: 'mock', task_ids: ['create_task_1', 'update_task_1'], num_trials: 2, skip_episodes: [{ task_id: 'create_task_1', trial: 1 }] }),
    );
    const run = await getRun(id);
    expect(run.counts.total).toBe(3);
    expect(run.config).toMatchObject({ task_set_name: 'mock', hallucination_retries: 3 });
  });

  it('the same Idempotency-Key and body → the same run, launched once', async () => {
    const headers = { 'Idempotency-Key': 'same-key-1' };
    const body = scriptedRun({ task_ids: ['create_task_1'] });
    const first = await startRun(body, headers);
    const second = await startRun(body, headers);
    expect(second).toBe(first);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE idempotency_key = 'client:operator:same-key-1'").first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it('the same Idempotency-Key with another body → 422 idempotency_key_reused', async () => {
    const headers = { 'Idempotency-Key': 'same-key-2' };
    await startRun(scriptedRun({ task_ids: ['create_task_1'] }), headers);
    const response = await call('/v1/runs', { body: scriptedRun({ task_ids: ['update_task_1'] }), headers });
    expect(response.status).toBe(422);
    expect((await errorOf(response)).code).toBe('idempotency_key_reused');
  });
});
