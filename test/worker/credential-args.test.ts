// Credentials in a role's llm_args are refused with 400 naming the field, by every entry point that takes llm
// args (runs, schedules, agent-driven episodes and their batches, OpenEnv resets), before anything is stored;
// provider keys belong in /v1/provider-credentials. Legitimate arguments still launch.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../src/api/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { encodeConfig, insertRun } from '../../src/worker/db/runs.ts';
import { call } from './support/api.ts';
import { connect, errorData, RESET } from './support/openenv.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';

const SECRET = 'sk-never-stored-5e1f';

const count = async (table: 'runs' | 'schedules'): Promise<number> => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

/** Rows of any table holding the secret's text. */
const storedSecrets = async (): Promise<number> => {
  const runs = await env.DB.prepare('SELECT count(*) AS n FROM runs WHERE config LIKE ?').bind(`%${SECRET}%`).first<{ n: number }>();
  const schedules = await env.DB.prepare('SELECT count(*) AS n FROM schedules WHERE run_config LIKE ?').bind(`%${SECRET}%`).first<{ n: number }>();
  return runs!.n + schedules!.n;
};

const refused = async (response: Response, path: string): Promise<void> => {
  expect(response.status).toBe(400);
  const { error } = ApiErrorSchema.parse(await response.json());
  expect(error.code).toBe('invalid_request');
  expect(error.issues).toContainEqual({ path, message: expect.stringMatching(/provider-credentials/) });
  expect(JSON.stringify(error)).not.toContain(SECRET);
};

const CASES = [
  ['llm_args_agent', { api_key: SECRET }, 'llm_args_agent.api_key'],
  ['llm_args_user', { temperature: 0, extra_headers: { Authorization: `Bearer ${SECRET}` } }, 'llm_args_user.extra_headers.Authorization'],
  ['llm_args_judge', { default_headers: { 'X-Api-Key': SECRET } }, 'llm_args_judge.default_headers.X-Api-Key'],
] as const;

describe('credential-like llm args', () => {
  it('POST /v1/runs: 400 naming the field, and no run', async () => {
    const before = await count('runs');
    for (const [field, args, path] of CASES) await refused(await call('/v1/runs', { body: scriptedRun({ [field]: args }) }), path);
    await refused(await call('/v1/runs', { body: scriptedRun({ llm_args_agent: { apiKey: SECRET, reasoning_effort: 'low' } }) }), 'llm_args_agent.apiKey');
    expect(await count('runs')).toBe(before);
    expect(await storedSecrets()).toBe(0);
  });

  it('schedules, created or changed: 400 naming the field, and nothing stored', async () => {
    const before = await count('schedules');
    for (const [field, args, path] of CASES) {
      await refused(await call('/v1/schedules', { body: { name: 'keyed', interval_minutes: 60, run: scriptedRun({ [field]: args }) } }), `run.${path}`);
    }
    expect(await count('schedules')).toBe(before);
    const created = await call('/v1/schedules', { body: { name: 'plain', interval_minutes: 60, enabled: false, run: scriptedRun({ llm_args_agent: { temperature: 0, api_base: 'https://example.test/v1' } }) } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await refused(await call(`/v1/schedules/${id}`, { method: 'PATCH', body: { run: scriptedRun({ llm_args_user: { 'proxy-authorization': SECRET } }) } }), 'run.llm_args_user.proxy-authorization');
    expect(await storedSecrets()).toBe(0);
  });

  it('agent-driven episodes and their batches: 400 naming the field, and no run', async () => {
    const before = await count('runs');
    const episode = { domain: 'mock', task_id: 'create_task_1', llm_user: SCRIPT_MODELS.user, llm_args_user: { client_secret: SECRET } };
    await refused(await call('/v1/episodes', { body: episode }), 'llm_args_user.client_secret');
    const { task_id: _, ...settings } = episode;
    await refused(await call('/v1/episodes/batch', { body: { ...settings, task_ids: ['create_task_1'], llm_args_user: { Cookie: SECRET } } }), 'llm_args_user.Cookie');
    await refused(await call('/v1/episodes', { body: { ...episode, role: 'user', llm_args_user: undefined, llm_agent: SCRIPT_MODELS.agent, llm_args_agent: { access_token: SECRET } } }), 'llm_args_agent.access_token');
    expect(await count('runs')).toBe(before);
    expect(await storedSecrets()).toBe(0);
  });

  it('an OpenEnv reset: VALIDATION_ERROR naming the field, and no episode', async () => {
    const before = await count('runs');
    const client = await connect();
    const refusal = errorData(await client.ask({ type: 'reset', data: { ...RESET, llm_args_user: { extra_headers: { authorization: SECRET } } } }));
    expect(refusal).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, reason: 'invalid_request' });
    expect(refusal.errors?.[0]).toMatchObject({ path: 'llm_args_user.extra_headers.authorization' });
    expect(JSON.stringify(refusal)).not.toContain(SECRET);
    client.close();
    expect(await count('runs')).toBe(before);
  });

  it('a run stored before they were refused is read, and shown, without them', async () => {
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    const clean = RunConfigSchema.parse(scriptedRun({ task_ids: ['create_task_1'] }));
    const config = { ...clean, llm_args_agent: { ...clean.llm_args_agent, api_key: SECRET, extra_headers: { Authorization: SECRET, 'X-Trace': 't' } } };
    await insertRun(env.DB, {
      id, tenantId: 'operator', status: 'cancelled', config: encodeConfig(config), total: 1, scheduleId: null, idempotencyKey: null,
      requestHash: null, error: null, createdAt: now, updatedAt: now,
    });
    for (const path of [`/v1/runs/${id}`, '/v1/runs?limit=5']) {
      const response = await call(path);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain(id);
      expect(text).toContain('X-Trace');
      expect(text).not.toContain(SECRET);
    }
  });
});
