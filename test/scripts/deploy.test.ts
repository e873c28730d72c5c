// `npm run deploy` against a scripted Cloudflare API on 127.0.0.1 (real wrangler, real bundle, D1 migrations on a
// real SQLite), the deployed URL stood in for by a local server: a dry run changes nothing, the first run creates
// the database and the queue once, sets the secrets and uploads the Worker with every binding, and a second run
// uploads only the code. No secret value reaches the output or wrangler's logs.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { deploy } from '../../scripts/deploy.ts';
import { checkHealth, HEALTH_ORIGIN_OVERRIDE } from '../../scripts/deploy/health.ts';
import { deployConfigPath, sourceConfigPath } from '../../scripts/deploy/config.ts';
import { wranglerWith } from '../../scripts/deploy/wrangler.ts';
import { workersSubdomain } from '../../scripts/deploy/subdomain.ts';
import { gitCommit } from '../../src/cli/run/git-commit.ts';
import { startFakeCloudflare } from '../support/fake-cloudflare.ts';
import type { CloudflareCall, FakeCloudflare } from '../support/fake-cloudflare.ts';

const API_KEY = 'typed-api-key-7f3a9c';
const OPENAI_API_KEY = 'sk-openai-from-env-51b2e8';

/** The deployed Worker's stand-in: its health answer, from `commit` (by default the checkout's, as deployed). */
const standIn = async (status: number, commit = gitCommit()) => {
  const server = createServer((request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(request.url === '/v1/health' && status === 200 ? JSON.stringify({ status: 'ok', commit }) : '{"error":"down"}');
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
};

/** The environment of a deploy to the scripted account. */
const accountEnv = (cf: FakeCloudflare): NodeJS.ProcessEnv => ({
  ...process.env,
  CLOUDFLARE_API_BASE_URL: cf.baseURL,
  CLOUDFLARE_API_TOKEN: cf.token,
  CLOUDFLARE_ACCOUNT_ID: cf.accountId,
});

const writes = (calls: readonly CloudflareCall[]) => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path.replace(/\/accounts\/\w+/, '').replace(/\?.*/, '')}`);

describe('npm run deploy against a scripted Cloudflare API', () => {
  let cf: FakeCloudflare;
  let health: Awaited<ReturnType<typeof standIn>>;
  let logDir: string;
  const output: string[] = [];
  const asked: string[] = [];
  const runs: CloudflareCall[][] = [];

  const run = async (dryRun: boolean) => {
    const env = { ...accountEnv(cf), WRANGLER_LOG_PATH: logDir, OPENAI_API_KEY, [HEALTH_ORIGIN_OVERRIDE]: health.origin };
    const before = cf.calls.length;
    const ask = async (name: string) => {
      asked.push(name);
      return name === 'API_KEY' ? API_KEY : '';
    };
    await deploy({ dryRun, env, inputs: { env, ask }, log: (line) => output.push(line), healthPatienceMs: 5_000 });
    runs.push(cf.calls.slice(before));
  };

  beforeAll(async () => {
    cf = await startFakeCloudflare();
    health = await standIn(200);
    logDir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-wrangler-logs-'));
    await run(true);
    await run(false);
    await run(false);
  }, 900_000);

  afterAll(async () => {
    await cf?.close();
    await health?.close();
    await rm(logDir, { recursive: true, force: true });
    await rm(deployConfigPath, { force: true });
  });

  it('a dry run reads the account and changes nothing', () => {
    expect(writes(runs[0]!)).toEqual([]);
    expect(output.join('\n')).toMatch(/D1 database tau2-edge: would be created/);
    expect(output.join('\n')).toMatch(/queue tau2-edge-turns: would be created/);
    expect(output).toContain('workers.dev subdomain: tau2-test (the Worker answers at https://tau2-edge.tau2-test.workers.dev)');
  });

  it('the first run creates the database and the queue, once', () => {
    const created = writes(runs[1]!);
    expect(created.filter((w) => w === 'POST /d1/database')).toHaveLength(1);
    expect(created.filter((w) => w === 'POST /queues')).toHaveLength(1);
    expect(created.filter((w) => /^POST \/queues\/\w+\/consumers$/.test(w))).toHaveLength(1);
    expect(created).toContain('PUT /workers/scripts/tau2-edge');
    expect([...cf.databases.values()].map((d) => d.name)).toEqual(['tau2-edge']);
    expect([...cf.queues.values()].map((q) => q.queue_name)).toEqual(['tau2-edge-turns']);
  });

  it('applies every migration to the remote database', async () => {
    const [database] = [...cf.databases.values()];
    const files = (await readdir(path.join(import.meta.dirname, '../../migrations'))).filter((f) => f.endsWith('.sql')).sort();
    const applied = database!.db.prepare('SELECT name FROM d1_migrations ORDER BY id').all().map((r) => r.name);
    expect(applied).toEqual(files);
    const tables = database!.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['runs', 'simulations', 'messages', 'api_keys', 'tenant_quotas', 'schedules']));
  });

  it('uploads the Worker with every binding, the Durable Object migrations and the compatibility date', async () => {
    const toml = parseToml(await readFile(path.join(import.meta.dirname, '../../wrangler.toml'), 'utf8')) as Record<string, never>;
    const script = cf.scripts.get('tau2-edge')!;
    const named = (upload: number) => (cf.uploads[upload]!.metadata.bindings as { name: string; type: string }[]).filter((b) => b.type !== 'secret_text');
    const bindings = Object.fromEntries(named(0).map((b) => [b.name, b]));
    // The second run's version carries the same bindings (its secrets stay set on the Worker).
    expect(named(1)).toEqual(named(0));
    const [database] = [...cf.databases.values()];
    expect(bindings.DB).toMatchObject({ type: 'd1', id: database!.uuid });
    expect(bindings.TURNS).toMatchObject({ type: 'queue', queue_name: 'tau2-edge-turns' });
    for (const [name, class_name] of [['EPISODE', 'EpisodeDO'], ['RUN', 'RunDO'], ['PROVIDER_GATE', 'ProviderGateDO'], ['OPENENV_SESSION', 'OpenEnvSessionDO']]) {
      expect(bindings[name!]).toMatchObject({ type: 'durable_object_namespace', class_name });
    }
    expect(bindings.AUTH_FAILURES).toMatchObject({ type: 'ratelimit' });
    expect(bindings.ASSETS).toMatchObject({ type: 'assets' });
    for (const [name, value] of Object.entries(toml.vars as unknown as Record<string, string>)) {
      // The deployed Worker reports the commit it was deployed from, where wrangler.toml says "unknown".
      expect(bindings[name]).toMatchObject({ type: 'plain_text', text: name === 'GIT_COMMIT' ? gitCommit() : value });
    }
    expect(bindings.GIT_COMMIT).toMatchObject({ text: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(cf.uploads).toHaveLength(2);
    const firstMetadata = cf.uploads[0]!.metadata;
    expect(firstMetadata.migrations).toMatchObject({ new_tag: 'v2', steps: [{ new_sqlite_classes: ['EpisodeDO', 'RunDO', 'ProviderGateDO'] }, { new_sqlite_classes: ['OpenEnvSessionDO'] }] });
    expect(firstMetadata.compatibility_date).toBe(toml.compatibility_date);
    expect(firstMetadata).toMatchObject({ limits: { cpu_ms: 300_000 }, observability: { enabled: true }, placement: { mode: 'smart' } });
    expect(script.migrationTag).toBe('v2');
  });

  it('sets the missing secrets: CREDENTIALS_KEY generated, API_KEY asked for, the provider key from the environment', () => {
    const { secrets } = cf.scripts.get('tau2-edge')!;
    expect(Object.keys(secrets).sort()).toEqual(['API_KEY', 'CREDENTIALS_KEY', 'OPENAI_API_KEY']);
    expect(secrets.API_KEY).toBe(API_KEY);
    expect(secrets.OPENAI_API_KEY).toBe(OPENAI_API_KEY);
    expect(Buffer.from(secrets.CREDENTIALS_KEY!, 'base64')).toHaveLength(32);
    // Asked once, on the first real run (a dry run asks nothing; the second run finds it set).
    expect(asked).toEqual(['API_KEY']);
  });

  it('a second run creates nothing and sets no secret: only the code is uploaded', () => {
    const second = writes(runs[2]!);
    expect(second.filter((w) => /^POST \/(d1\/database|queues)$|\/consumers$|^PUT \/workers\/scripts\/tau2-edge$/.test(w))).toEqual([]);
    expect(second).toContain('POST /workers/scripts/tau2-edge/versions');
    expect((cf.uploads[1]!.metadata.bindings as { type: string }[]).filter((b) => b.type === 'secret_text')).toEqual([]);
    expect(output.at(-4)).toMatch(/^secrets: none missing; already set: (API_KEY|CREDENTIALS_KEY|OPENAI_API_KEY)(, (API_KEY|CREDENTIALS_KEY|OPENAI_API_KEY)){2}$/);
    expect(output.filter((line) => line.startsWith('migrations:')).at(-1)).toBe('migrations: up to date');
  });

  it('checks GET /v1/health on the deployed URL (here its local stand-in)', () => {
    expect(output.filter((line) => line.startsWith('deployed: https://tau2-edge.tau2-test.workers.dev'))).toHaveLength(2);
    expect(output.filter((line) => line === `health: GET ${health.origin}/v1/health answered {"status":"ok"} from commit ${gitCommit()}`)).toHaveLength(2);
  });

  it('never shows a secret value: not in the output, wrangler’s logs or the deploy configuration', async () => {
    const secrets = Object.values(cf.scripts.get('tau2-edge')!.secrets);
    const logs = await Promise.all((await readdir(logDir)).map((f) => readFile(path.join(logDir, f), 'utf8')));
    expect(logs.length).toBeGreaterThan(0);
    const seen = [output.join('\n'), ...logs, await readFile(deployConfigPath, 'utf8')].join('\n');
    for (const secret of secrets) expect(seen).not.toContain(secret);
    expect((await readdir(tmpdir())).filter((f) => f.startsWith('tau2-edge-deploy-'))).toEqual([]);
  });
});

describe('the health check', () => {
  // A deployed Worker is asked every second for a minute; a local stand-in needs a fraction of that.
  const PATIENCE_MS = 400;
  const INTERVAL_MS = 50;

  it('fails when the deployed Worker does not answer {"status":"ok"}', async () => {
    const down = await standIn(503);
    try {
      await expect(checkHealth(`${down.origin}/v1/health`, PATIENCE_MS, undefined, INTERVAL_MS)).rejects.toThrow(/did not answer \{"status":"ok"\} \(last: 503/);
    } finally {
      await down.close();
    }
  });

  it('waits for the commit deployed: the previous version answering is not yet the new one', async () => {
    const previous = await standIn(200, 'the-previous-commit');
    try {
      const failure = (await checkHealth(`${previous.origin}/v1/health`, PATIENCE_MS, gitCommit(), INTERVAL_MS).catch((error: unknown) => error)) as Error;
      expect(failure.message).toContain('the Worker answers from another commit');
      await expect(checkHealth(`${previous.origin}/v1/health`, PATIENCE_MS, 'the-previous-commit', INTERVAL_MS)).resolves.toBeUndefined();
    } finally {
      await previous.close();
    }
  });

  it('a Worker it cannot reach: says the code was deployed, and what to check', async () => {
    const gone = await standIn(200);
    await gone.close();
    const failure = (await checkHealth(`${gone.origin}/v1/health`, PATIENCE_MS, undefined, INTERVAL_MS).catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(/^the Worker was deployed, but GET http:\/\/127\.0\.0\.1:\d+\/v1\/health did not answer \{"status":"ok"\} \(last: fetch failed\)/);
    expect(failure.message).toContain('deploying again is not needed');
    expect(failure.message).toContain('a new workers.dev subdomain takes minutes to resolve');
    expect(failure.message).toContain('npx wrangler tail');
  });
});

describe('an account without a workers.dev subdomain', () => {
  let cf: FakeCloudflare;
  beforeAll(async () => {
    cf = await startFakeCloudflare({ subdomain: null });
  });
  afterAll(() => cf.close());

  for (const dryRun of [true, false]) {
    it(`is refused first${dryRun ? ' in a dry run' : ''}, saying how to choose one, and nothing is created`, async () => {
      const output: string[] = [];
      const env = accountEnv(cf);
      const failure = (await deploy({ dryRun, env, inputs: { env, ask: null }, log: (line) => output.push(line) }).catch((error: unknown) => error)) as Error;
      expect(failure.message).toMatch(/^the account has no workers\.dev subdomain \(10007 [^)]+\), on which the Worker is published: choose one in the Cloudflare dashboard/);
      expect(failure.message).toContain(`PUT /accounts/${cf.accountId}/workers/subdomain`);
      expect(failure.message).toContain('Nothing was created.');
      expect(writes(cf.calls)).toEqual([]);
      expect(output).toHaveLength(1);
    }, 120_000);
  }
});

describe('the workers.dev subdomain with wrangler logged in (no CLOUDFLARE_API_TOKEN)', () => {
  it("is read with the login's token, as `wrangler auth token` gives it", async () => {
    const cf = await startFakeCloudflare();
    // wrangler's login as `wrangler login` leaves it, in a configuration folder of the test's own.
    const home = await mkdtemp(path.join(tmpdir(), 'tau2-edge-wrangler-home-'));
    try {
      await mkdir(path.join(home, '.wrangler', 'config'), { recursive: true });
      const login = [`oauth_token = "${cf.token}"`, 'refresh_token = "not-used"', 'expiration_time = "2099-01-01T00:00:00.000Z"', 'scopes = ["account:read"]'];
      await writeFile(path.join(home, '.wrangler', 'config', 'default.toml'), `${login.join('\n')}\n`);
      const env: NodeJS.ProcessEnv = { ...accountEnv(cf), HOME: home, XDG_CONFIG_HOME: home };
      delete env.CLOUDFLARE_API_TOKEN;
      expect(await workersSubdomain(wranglerWith(sourceConfigPath, env), env)).toBe('tau2-test');
      // The fake refuses any other bearer: the subdomain was read with the login's token.
      expect(cf.calls.map((c) => `${c.method} ${c.path.replace(/\/accounts\/\w+/, '')} ${c.status}`)).toEqual(['GET /workers/subdomain 200']);
    } finally {
      await cf.close();
      await rm(home, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("wrangler's output as the deploy reads it", () => {
  it('carries no terminal colour codes, even where the environment asks for colour', async () => {
    const cf = await startFakeCloudflare();
    try {
      const wrangler = wranglerWith(sourceConfigPath, { ...accountEnv(cf), CLOUDFLARE_API_TOKEN: 'not-the-token', FORCE_COLOR: '1' });
      const result = await wrangler(['d1', 'list', '--json']);
      expect(result.ok).toBe(false);
      expect(result.stdout + result.stderr).toContain('Authentication error');
      expect(result.stdout + result.stderr).not.toContain('\u001b');
    } finally {
      await cf.close();
    }
  }, 120_000);
});

describe('the scripted Cloudflare API', () => {
  let cf: FakeCloudflare;
  beforeAll(async () => {
    cf = await startFakeCloudflare();
  });
  afterAll(() => cf.close());

  const call = (path: string, init: RequestInit & { token?: string } = {}) =>
    fetch(`${cf.baseURL}/accounts/${cf.accountId}${path}`, { ...init, headers: { authorization: `Bearer ${init.token ?? cf.token}`, 'content-type': 'application/json' } });

  it('refuses a call without the token, in the envelope', async () => {
    const response = await call('/d1/database', { token: 'wrong' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ success: false, errors: [{ code: 10000, message: 'Authentication error' }], messages: [], result: null });
  });

  it('refuses malformed creations and creates nothing', async () => {
    expect((await call('/d1/database', { method: 'POST', body: '{"name":"Bad Name!"}' })).status).toBe(400);
    expect((await call('/queues', { method: 'POST', body: 'not json' })).status).toBe(400);
    expect((await call('/workers/scripts/w', { method: 'PUT', body: '{}' })).status).toBe(400);
    expect(cf.databases.size + cf.queues.size + cf.scripts.size).toBe(0);
  });

  it('refuses a second database or queue of the same name', async () => {
    expect((await call('/d1/database', { method: 'POST', body: '{"name":"db"}' })).status).toBe(200);
    const again = await call('/d1/database', { method: 'POST', body: '{"name":"db"}' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { errors: { code: number }[] }).errors[0]!.code).toBe(7502);
  });
});
