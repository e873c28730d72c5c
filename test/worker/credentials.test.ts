// Bring-your-own provider: a tenant's own credentials are sealed at rest, never shown, and used by its runs
// (and only its runs); endpoints must be public https addresses unless the operator allows local ones.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ApiErrorSchema, ApiKeyCreatedSchema, ProviderCredentialListSchema, ProviderCredentialSchema } from '../../src/api/index.ts';
import { decryptSecret, encryptSecret, endpointIssue } from '../../src/worker/credentials.ts';
import { call, pyBody, waitForRun } from './support/api.ts';
import type { CallOptions } from './support/api.ts';
import { SCRIPT_MODELS, TENANT_PROVIDER_KEY, scriptedRun } from './support/script.ts';

const tenantKey = async (tenant: string): Promise<string> =>
  ApiKeyCreatedSchema.parse(await pyBody(await call('/v1/admin/keys', { body: { tenant, name: tenant } }))).key;

const as = (key: string, path: string, options: CallOptions = {}) =>
  call(path, { ...options, headers: { ...options.headers, authorization: `Bearer ${key}` } });

const launch = async (key: string, body: unknown): Promise<string> => {
  const response = await as(key, '/v1/runs', { body });
  expect(response.status).toBe(202);
  return (JSON.parse(await response.text()) as { run_id: string }).run_id;
};

/** Every row of every table, as text: a secret must not be in it. */
const everyRow = async (): Promise<string> => {
  const tables = await env.DB.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'`).all<{ name: string }>();
  const rows = await Promise.all(tables.results.map(({ name }) => env.DB.prepare(`SELECT * FROM "${name}"`).all()));
  return JSON.stringify(rows.map((r) => r.results));
};

describe('provider credentials', () => {
  it("a tenant's runs call its own endpoint with its own key, which no response or row shows", async () => {
    const key = await tenantKey('byo-acme');
    const put = await as(key, '/v1/provider-credentials/openai', { method: 'PUT', body: { base_url: env.OPENAI_BASE_URL, api_key: TENANT_PROVIDER_KEY } });
    expect(put.status).toBe(200);
    const stored = ProviderCredentialSchema.parse(await pyBody(put));
    expect(stored).toMatchObject({ provider: 'openai', base_url: env.OPENAI_BASE_URL, key_set: true });
    const list = await (await as(key, '/v1/provider-credentials')).text();
    expect(ProviderCredentialListSchema.parse(JSON.parse(list)).credentials.map((c) => c.provider)).toEqual(['openai']);

    // The scripted model answers only calls that carry the tenant's key.
    const body = scriptedRun({ llm_agent: SCRIPT_MODELS.tenantAgent, task_ids: ['create_task_1'] });
    const runId = await launch(key, body);
    const run = await waitForRun(runId, { apiKey: key });
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0 });
    const results = await (await as(key, `/v1/runs/${runId}/results`)).text();
    const events = await (await as(key, `/v1/runs/${runId}/events`)).text();

    // Anyone else's run goes to the operator's provider with the operator's key: that model refuses it.
    const globex = await tenantKey('byo-globex');
    const other = await waitForRun(await launch(globex, body), { apiKey: globex });
    expect(other.counts).toMatchObject({ done: 1, infra_error: 1 });

    for (const text of [JSON.stringify(stored), list, results, events, await everyRow()]) expect(text).not.toContain(TENANT_PROVIDER_KEY);
  });

  it('refuses unknown providers, base_url for a provider that takes none, unknown fields and missing keys', async () => {
    const key = await tenantKey('byo-checks');
    for (const [path, body, field] of [
      ['/v1/provider-credentials/azure', { api_key: 'k' }, 'provider'],
      ['/v1/provider-credentials/anthropic', { api_key: 'k', base_url: 'https://api.example.com' }, 'base_url'],
      ['/v1/provider-credentials/openai', { api_key: 'k', org: 'x' }, ''],
      ['/v1/provider-credentials/openai', { base_url: 'https://api.example.com' }, 'api_key'],
      ['/v1/provider-credentials/openai', { api_key: 'k', base_url: 'ftp://api.example.com' }, 'base_url'],
    ] as const) {
      const response = await as(key, path, { method: 'PUT', body });
      expect(response.status).toBe(400);
      expect(ApiErrorSchema.parse(await response.json()).error.issues?.map((i) => i.path)).toContain(field);
    }
    expect((await as(key, '/v1/provider-credentials')).status).toBe(200);
    expect((await as(key, '/v1/provider-credentials/google', { method: 'DELETE' })).status).toBe(404);
    expect((await as(key, '/v1/provider-credentials/google', { method: 'PUT', body: { api_key: 'g-key' } })).status).toBe(200);
    expect((await as(key, '/v1/provider-credentials/google', { method: 'DELETE' })).status).toBe(204);
  });
});

describe('sealed keys', () => {
  it('open only under the tenant and provider they were sealed for', async () => {
    const sealed = await encryptSecret(env, 'sk-secret', 'acme/openai');
    expect(sealed).not.toContain('sk-secret');
    expect(await decryptSecret(env, sealed, 'acme/openai')).toBe('sk-secret');
    await expect(decryptSecret(env, sealed, 'globex/openai')).rejects.toThrow();
    expect(await encryptSecret(env, 'sk-secret', 'acme/openai')).not.toBe(sealed);
  });
});

describe('provider endpoints', () => {
  const production = {} as Env;
  for (const url of [
    'http://api.example.com/v1',
    'https://127.0.0.1/v1',
    'https://10.1.2.3/v1',
    'https://172.16.0.5/v1',
    'https://192.168.1.1/v1',
    'https://169.254.169.254/latest',
    'https://100.64.0.1/v1',
    'https://0.0.0.0/v1',
    'https://localhost/v1',
    'https://models.localhost/v1',
    'https://[::1]/v1',
    'https://[::ffff:127.0.0.1]/v1',
    'https://[fd00::1]/v1',
    'https://[fe80::1]/v1',
    'https://user:pw@api.example.com/v1',
    'not a url',
  ]) {
    it(`refuses ${url}`, () => expect(endpointIssue(url, production)).not.toBeNull());
  }
  for (const [url, why] of [
    ['https://[::ffff:127.0.0.1]/v1', '::ffff:7f00:1 is the IPv4-mapped IPv6 form of 127.0.0.1'],
    ['https://[::ffff:0:127.0.0.1]/v1', '::ffff:0:7f00:1 is the IPv4-translated IPv6 form of 127.0.0.1'],
    ['https://[::ffff:0:10.0.0.1]/v1', 'is the IPv4-translated IPv6 form of 10.0.0.1'],
    ['https://[64:ff9b::127.0.0.1]/v1', '64:ff9b::7f00:1 is the NAT64 IPv6 form of 127.0.0.1'],
    ['https://[64:ff9b::169.254.169.254]/latest', 'is the NAT64 IPv6 form of 169.254.169.254'],
    ['https://[64:ff9b:1::8.8.8.8]/v1', 'is in 64:ff9b:1::/48, the NAT64 prefix of local networks'],
    ['https://[::127.0.0.1]/v1', 'is the IPv4-compatible IPv6 form of 127.0.0.1'],
    ['https://[2002:c0a8:101::1]/v1', 'is the 6to4 IPv6 form of 192.168.1.1'],
    ['https://[0:0:0:0:0:0:0:1]/v1', 'is the unspecified or loopback IPv6 address'],
    ['https://[ff02::1]/v1', 'is a multicast IPv6 address'],
    ['https://intranet/v1', 'intranet is a single-label host name'],
    ['https://intranet./v1', 'is a single-label host name'],
    ['https://2130706433/v1', '127.0.0.1 is a loopback, private or link-local address'],
  ]) {
    it(`refuses ${url}, saying why`, () => expect(endpointIssue(url!, production)).toContain(why));
  }
  for (const url of ['https://api.openai.com/v1', 'https://172.32.0.1/v1', 'https://[2606:4700::1111]/v1', 'https://[64:ff9b::8.8.8.8]/v1', 'https://[::ffff:8.8.8.8]/v1']) {
    it(`accepts ${url}`, () => expect(endpointIssue(url, production)).toBeNull());
  }
  it('with ALLOW_LOCAL_PROVIDERS, local http endpoints too', () => {
    expect(endpointIssue('http://127.0.0.1:8000/v1', { ALLOW_LOCAL_PROVIDERS: 'true' } as unknown as Env)).toBeNull();
  });
});
