// POST /v1/runs with a rounds goal: the fields validated (400 naming the field, nothing created), compare_to only
// a run of the caller's (404), and the run object adding one trial per task per round until its goal says stop,
// the reason visible in GET /v1/runs/:id; a round the quotas refuse ends the run with that reason.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, ApiKeyCreatedSchema } from '../../src/api/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { call, getRun, pyBody, startRun, waitForRun } from './support/api.ts';
import type { CallOptions } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';

const runCount = async (): Promise<number> => (await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>())!.n;

const refusedWith = async (body: unknown, status: number, code: string, message: string, options: CallOptions = {}): Promise<void> => {
  const before = await runCount();
  const response = await call('/v1/runs', { ...options, body });
  expect(response.status, await response.clone().text()).toBe(status);
  const { error } = ApiErrorSchema.parse(await response.json());
  expect(error.code).toBe(code);
  expect(error.message).toContain(message);
  expect(await runCount()).toBe(before);
};

const tenantKey = async (tenant: string): Promise<string> =>
  ApiKeyCreatedSchema.parse(await pyBody(await call('/v1/admin/keys', { body: { tenant, name: tenant } }))).key;

const oneTask = (overrides: Record<string, unknown> = {}) => ({ ...scriptedRun({ task_ids: ['create_task_1'] }), ...overrides });

describe('runs adding trials in rounds', () => {
  it('refuses a bad rounds field with 400 naming it, creating nothing', async () => {
    await refusedWith(oneTask({ target_ci_width: 0 }), 400, 'invalid_request', 'target_ci_width:');
    await refusedWith(oneTask({ target_ci_width: 1.5 }), 400, 'invalid_request', 'target_ci_width:');
    await refusedWith(oneTask({ target_ci_width: 'narrow' }), 400, 'invalid_request', 'target_ci_width:');
    await refusedWith(oneTask({ compare_to: 'some-run' }), 400, 'invalid_request', 'until_resolved: compare_to goes with until_resolved: true');
    await refusedWith(oneTask({ until_resolved: true }), 400, 'invalid_request', 'until_resolved: compare_to goes with until_resolved: true');
    await refusedWith(oneTask({ max_trials: 5 }), 400, 'invalid_request', 'max_trials: max_trials needs target_ci_width');
    await refusedWith(oneTask({ target_ci_width: 0.2, max_trials: 0 }), 400, 'invalid_request', 'max_trials:');
    await refusedWith(oneTask({ target_ci_width: 0.2, num_trials: 3, max_trials: 2 }), 400, 'invalid_request', 'max_trials: 2 is below num_trials (3)');
    // Bounded as if every trial ran: the operator's trial limit (32 by default) and episodes per run.
    await refusedWith(oneTask({ target_ci_width: 0.2, max_trials: 33 }), 400, 'limit_exceeded', 'max_trials: 33 is over the operator limit LIMIT_MAX_TRIALS = 32');
  });

  it('compare_to must be a run of the caller, in the same domain (404 otherwise)', async () => {
    await refusedWith(oneTask({ compare_to: 'no-such-run', until_resolved: true }), 404, 'not_found', 'Run no-such-run not found');
    const other = await tenantKey('rounds-other');
    const theirs = await startRun(oneTask(), { authorization: `Bearer ${other}` });
    await waitForRun(theirs, { apiKey: other });
    await refusedWith(oneTask({ compare_to: theirs, until_resolved: true }), 404, 'not_found', `Run ${theirs} not found`);
    const airline = await startRun(scriptedRun({ domain: 'airline', task_ids: ['0'] }));
    expect((await call(`/v1/runs/${airline}/cancel`, { method: 'POST' })).status).toBe(200);
    await refusedWith(oneTask({ compare_to: airline, until_resolved: true }), 400, 'invalid_request', `compare_to: Run ${airline} ran domain airline, not mock`);
  });

  it('target_ci_width out of reach: rounds until max_trials, trials continuing, the reason on the run', async () => {
    const id = await startRun(scriptedRun({ task_ids: ['create_task_1', 'update_task_1'], max_concurrency: 2, target_ci_width: 0.05, max_trials: 3 } as never));
    const run = await waitForRun(id, { timeoutMs: 90_000 });
    expect(run).toMatchObject({ status: 'completed', stop_reason: 'max_trials', rounds: { target_ci_width: 0.05, max_trials: 3 } });
    expect(run.counts).toMatchObject({ total: 6, done: 6, pending: 0, running: 0 });
    expect(run.config.num_trials).toBe(3);
    const results = ResultsSchema.parse(parsePyJson(await (await call(`/v1/runs/${id}/results`)).text()));
    expect(results.info.num_trials).toBe(3);
    expect(results.simulations.map((s) => `${s.task_id}/${s.trial}`).sort()).toEqual(
      ['create_task_1/0', 'create_task_1/1', 'create_task_1/2', 'update_task_1/0', 'update_task_1/1', 'update_task_1/2'],
    );
  });

  it('target_ci_width in reach: stops with ci_width_reached once the anytime-valid interval is that narrow', async () => {
    // The scripted agent solves create_task_1 every time: the interval reaches 0.8 wide at ten trials.
    const id = await startRun(oneTask({ target_ci_width: 0.8, max_trials: 20, max_concurrency: 1 }));
    const run = await waitForRun(id, { timeoutMs: 90_000 });
    expect(run).toMatchObject({ status: 'completed', stop_reason: 'ci_width_reached', counts: { total: 10, done: 10 } });
    expect(run.config.num_trials).toBe(10);
  });

  it('compare_to with until_resolved plays A\'s tasks and stops as soon as a clearly better agent is resolved', async () => {
    // A: an agent that only talks (reward 0 on create_task_1), 20 trials.
    const a = await startRun(oneTask({ llm_agent: SCRIPT_MODELS.talkingAgent, num_trials: 20, max_concurrency: 10 }));
    expect((await waitForRun(a, { timeoutMs: 90_000 })).metrics['avg_reward']).toBe(0);
    // B names no tasks: it plays A's.
    const b = await startRun(scriptedRun({ compare_to: a, until_resolved: true, max_trials: 20 } as never));
    const run = await waitForRun(b, { timeoutMs: 120_000 });
    expect(run.config.task_ids).toEqual(['create_task_1']);
    expect(run).toMatchObject({ status: 'completed', stop_reason: 'resolved', rounds: { compare_to: a, until_resolved: true, max_trials: 20 } });
    expect(run.metrics['avg_reward']).toBe(1);
    expect(run.config.num_trials).toBeGreaterThan(1);
    expect(run.config.num_trials).toBeLessThan(20);
    expect(run.counts.total).toBe(run.config.num_trials);
  });

  it('a round the quotas refuse ends the run with quota_exceeded, naming the quota', async () => {
    const key = await tenantKey('rounds-quota');
    expect((await call('/v1/admin/tenants/rounds-quota/quotas', { method: 'PUT', body: { episodes_per_day: 3 } })).status).toBe(200);
    const id = await startRun(scriptedRun({ task_ids: ['create_task_1', 'update_task_1'], target_ci_width: 0.05, max_trials: 5 } as never), { authorization: `Bearer ${key}` });
    const run = await waitForRun(id, { apiKey: key });
    expect(run).toMatchObject({ status: 'completed', stop_reason: 'quota_exceeded' });
    expect(run.error).toContain('Quota episodes_per_day reached');
    expect(run.counts).toMatchObject({ total: 2, done: 2 });
    expect((await getRun(id, key)).config.num_trials).toBe(1);
  });

  it('the OpenAPI document names the rounds fields of POST /v1/runs and the stop reasons of the run', async () => {
    const doc = (await (await call('/v1/openapi.json', { anonymous: true })).json()) as { paths: Record<string, Record<string, unknown>> };
    const post = JSON.stringify(doc.paths['/v1/runs']!['post']);
    for (const field of ['target_ci_width', 'compare_to', 'until_resolved', 'max_trials', '"domain"']) expect(post).toContain(field);
    const get = JSON.stringify(doc.paths['/v1/runs/{id}']!['get']);
    for (const reason of ['ci_width_reached', 'resolved', 'max_trials', 'baseline_trials', 'quota_exceeded']) expect(get).toContain(`"${reason}"`);
  });
});
