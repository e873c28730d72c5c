// A role's own endpoint (`api_base` in llm_args, litellm's per-call API root): its calls go to that endpoint with
// the payload they would have anywhere, under the bring-your-own endpoint rules; the operator's key goes there only
// on the operator's runs, a tenant's own key on the tenant's, no key otherwise.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, ApiKeyCreatedSchema } from '../../src/api/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { apiBaseIssue } from '../../src/worker/runs/models.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import type { CallOptions } from './support/api.ts';
import { SCRIPT_MODELS, TENANT_PROVIDER_KEY, scriptedRun } from './support/script.ts';

const as = (key: string, path: string, options: CallOptions = {}) => call(path, { ...options, headers: { ...options.headers, authorization: `Bearer ${key}` } });
const tenantKey = async (tenant: string): Promise<string> =>
  ApiKeyCreatedSchema.parse(await pyBody(await call('/v1/admin/keys', { body: { tenant, name: tenant } }))).key;
const launchAs = async (key: string, body: unknown): Promise<string> => {
  const response = await as(key, '/v1/runs', { body });
  expect(response.status).toBe(202);
  return (JSON.parse(await response.text()) as { run_id: string }).run_id;
};

const roleRun = (apiBase: unknown = env.TEST_ROLE_PROVIDER_URL) =>
  scriptedRun({ task_ids: ['create_task_1'], llm_agent: SCRIPT_MODELS.roleAgent, llm_args_agent: { temperature: 0, api_base: apiBase } as never });

const refusal = async (response: Response) => {
  expect(response.status).toBe(400);
  return ApiErrorSchema.parse(await response.json()).error;
};

describe('api_base in a role’s llm_args', () => {
  it("sends that role's calls to its endpoint (the operator's run: the operator's key); without it the model is unknown", async () => {
    const run = await waitForRun(await startRun(roleRun()));
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0, passed: 1 });
    expect(run.config.llm_args_agent).toMatchObject({ api_base: env.TEST_ROLE_PROVIDER_URL });
    const without = await waitForRun(await startRun(scriptedRun({ task_ids: ['create_task_1'], llm_agent: SCRIPT_MODELS.roleAgent })));
    expect(without.counts).toMatchObject({ done: 1, infra_error: 1 });
  });

  it("a tenant's api_base gets the tenant's own key, never the operator's", async () => {
    const plain = await tenantKey('role-plain');
    const noKey = await waitForRun(await launchAs(plain, roleRun()), { apiKey: plain });
    expect(noKey.counts).toMatchObject({ done: 1, infra_error: 1 });

    const own = await tenantKey('role-own');
    const put = await as(own, '/v1/provider-credentials/openai', { method: 'PUT', body: { base_url: env.OPENAI_BASE_URL, api_key: TENANT_PROVIDER_KEY } });
    expect(put.status).toBe(200);
    const withKey = await waitForRun(await launchAs(own, roleRun()), { apiKey: own });
    expect(withKey.counts).toMatchObject({ done: 1, infra_error: 0, passed: 1 });
  });

  it('refuses what cannot be an endpoint, naming the field, and launches nothing', async () => {
    const before = await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>();
    expect((await refusal(await call('/v1/runs', { body: roleRun(42) }))).issues?.map((i) => i.path)).toEqual(['llm_args_agent.api_base']);
    expect((await refusal(await call('/v1/runs', { body: roleRun('ftp://models.example/v1') }))).message).toMatch(/llm_args_agent\.api_base: Use an http\(s\) URL/);
    const native = scriptedRun({ llm_judge: 'anthropic/claude-sonnet-4-5', llm_args_judge: { api_base: 'https://models.example/v1' } as never });
    expect((await refusal(await call('/v1/runs', { body: native }))).message).toMatch(/llm_args_judge\.api_base: api_base is honoured for OpenAI-compatible models/);
    const schedule = await call('/v1/schedules', { body: { name: 'bad endpoint', interval_minutes: 60, run: roleRun('ftp://models.example/v1') } });
    expect((await refusal(schedule)).issues?.map((i) => i.path)).toEqual(['run.llm_args_agent.api_base']);
    const after = await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it('under production rules (no ALLOW_LOCAL_PROVIDERS): https only, no loopback, private or link-local host', () => {
    const production = { ...env, ALLOW_LOCAL_PROVIDERS: 'false' } as Env;
    const config = (api_base: string) => RunConfigSchema.parse({ domain: 'mock', llm_args_user: { api_base } });
    for (const url of ['http://models.example/v1', 'https://127.0.0.1/v1', 'https://10.1.2.3/v1', 'https://[::1]/v1', 'https://169.254.169.254/v1', 'https://user:pw@models.example/v1']) {
      expect(apiBaseIssue(production, config(url)), url).toMatchObject({ path: 'llm_args_user.api_base' });
    }
    expect(apiBaseIssue(production, config('https://models.example/v1'))).toBeNull();
  });
});
