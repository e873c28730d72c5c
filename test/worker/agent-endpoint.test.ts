// Remote agent endpoints: a run whose agent turns are POSTed to the caller's server (a scripted agent on
// 127.0.0.1 that wants its own key header) gives the results the built-in path gives with the same script;
// the header is a secret that no answer, results file, event or D1 row shows; a failing endpoint is an
// infrastructure error; bad endpoints are refused naming the field.
import { env } from 'cloudflare:workers';
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../src/worker/index.ts';
import { ScheduleSchema } from '../../src/api/index.ts';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { Results } from '../../src/core/schemas/simulation.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { agentEndpointIssue } from '../../src/worker/agent-endpoint.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import { AGENT_ENDPOINT_KEY, scriptedRun } from './support/script.ts';
import { normalizedResults } from './support/normalize.ts';

const endpoint = (url = env.TEST_AGENT_ENDPOINT_URL) => ({ url, headers: { 'x-agent-key': AGENT_ENDPOINT_KEY } });

const results = async (runId: string): Promise<{ text: string; results: Results }> => {
  const text = await (await call(`/v1/runs/${runId}/results`)).text();
  return { text, results: ResultsSchema.parse(parsePyJson(text)) };
};

/** Every text cell of every D1 table. */
const d1Text = async (): Promise<string> => {
  const tables = await env.DB.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'`).all<{ name: string }>();
  const dumps = await Promise.all(tables.results.map(async ({ name }) => JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results)));
  return dumps.join('\n');
};

describe('a remote agent endpoint', () => {
  it('plays the agent of a run: the same results as the built-in path, and its key is never shown', async () => {
    const body = scriptedRun({ num_trials: 1, max_concurrency: 4 });
    const builtIn = await startRun(body);
    const remote = await startRun({ ...body, agent_endpoint: endpoint() });
    const [builtInRun, remoteRun] = await Promise.all([waitForRun(builtIn), waitForRun(remote)]);
    expect(remoteRun.status).toBe('completed');
    expect(remoteRun.counts).toMatchObject({ total: 10, done: 10, infra_error: 0 });
    expect(remoteRun.counts.passed).toBe(builtInRun.counts.passed);
    expect(remoteRun.config.agent_endpoint).toEqual({ url: env.TEST_AGENT_ENDPOINT_URL });

    const expected = await results(builtIn);
    const got = await results(remote);
    expect(normalizedResults(got.results)).toEqual(normalizedResults(expected.results));

    const shown = [got.text, await (await call(`/v1/runs/${remote}`)).text(), await (await call(`/v1/runs/${remote}/events`)).text(), await d1Text()];
    for (const text of shown) expect(text).not.toContain(AGENT_ENDPOINT_KEY);
    const row = await env.DB.prepare('SELECT agent_headers_ciphertext AS sealed FROM runs WHERE id = ?').bind(remote).first<{ sealed: string | null }>();
    expect(row?.sealed).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
  });

  it('on a schedule: kept sealed with the schedule, and each launched run calls it with its headers', async () => {
    const response = await call('/v1/schedules', {
      body: { name: 'remote agent nightly', interval_minutes: 60, run: scriptedRun({ task_ids: ['create_task_1'], task_split_name: null, llm_agent: 'remote-only-agent', agent_endpoint: endpoint() }) },
    });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain(AGENT_ENDPOINT_KEY);
    const schedule = ScheduleSchema.parse(parsePyJson(text));
    expect(schedule.run.agent_endpoint).toEqual({ url: env.TEST_AGENT_ENDPOINT_URL });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '* * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    const launched = await env.DB.prepare('SELECT id FROM runs WHERE schedule_id = ?').bind(schedule.id).first<{ id: string }>();
    expect((await waitForRun(launched!.id)).counts).toMatchObject({ done: 1, passed: 1, infra_error: 0 });
    expect(await d1Text()).not.toContain(AGENT_ENDPOINT_KEY);
  });

  it('answers agent turns for models the provider does not know: its calls go to the endpoint, not the provider', async () => {
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'], task_split_name: null, llm_agent: 'remote-only-agent', agent_endpoint: endpoint() }));
    expect((await waitForRun(runId)).counts).toMatchObject({ done: 1, passed: 1, infra_error: 0 });
  });

  it('that fails records infrastructure errors, not agent failures', async () => {
    const url = env.TEST_AGENT_ENDPOINT_URL.replace('/agent/', '/broken/');
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'], task_split_name: null, agent_endpoint: endpoint(url) }));
    const run = await waitForRun(runId);
    expect(run.counts).toMatchObject({ total: 1, done: 1, infra_error: 1, passed: 0, failed: 0 });
    const [simulation] = (await results(runId)).results.simulations;
    expect(simulation!.termination_reason).toBe('infrastructure_error');
  });

  it('that redirects (307, 302) is an infrastructure error naming the redirect; the target, and so its header, is never reached', async () => {
    for (const status of [307, 302]) {
      const url = `${env.TEST_REDIRECT_BOUNCER_URL}/${status}/agent/chat/completions`;
      const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'], task_split_name: null, agent_endpoint: endpoint(url) }));
      expect((await waitForRun(runId)).counts).toMatchObject({ done: 1, infra_error: 1 });
      const [simulation] = (await results(runId)).results.simulations;
      expect(simulation!.termination_reason).toBe('infrastructure_error');
      expect(String(simulation!.info?.['error'])).toContain(`HTTP ${status} redirect refused (Location ${env.TEST_REDIRECT_TRAP_URL}/caught/${status}/agent/chat/completions)`);
    }
    expect(await (await fetch(`${env.TEST_REDIRECT_TRAP_URL}/__calls`)).json()).toEqual([]);
  });

  it('without its key header is refused by the endpoint: an infrastructure error too', async () => {
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'], task_split_name: null, agent_endpoint: { url: env.TEST_AGENT_ENDPOINT_URL } }));
    expect((await waitForRun(runId)).counts).toMatchObject({ done: 1, infra_error: 1 });
  });

  it('is refused when its URL, headers or agent kind cannot be used, creating nothing', async () => {
    const before = await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>();
    const cases: [unknown, string][] = [
      [{ url: 'ftp://agents.example/chat' }, 'agent_endpoint.url'],
      [{ url: 'https://agents.example/chat', headers: { Host: 'elsewhere' } }, 'agent_endpoint.headers.Host'],
      [{ url: 'https://agents.example/chat', headers: { 'x-key': 'a\r\nInjected: 1' } }, 'agent_endpoint.headers.x-key'],
      [{ url: 'https://agents.example/chat', headers: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`x-h${i}`, 'v'])) }, 'agent_endpoint.headers'],
      [{ url: 'https://agents.example/chat', secret: 'x' }, 'agent_endpoint'],
    ];
    for (const [agentEndpoint, path] of cases) {
      const response = await call('/v1/runs', { body: scriptedRun({ agent_endpoint: agentEndpoint as never }) });
      expect(response.status, path).toBe(400);
      const { error } = (await pyBody(response)) as { error: { issues: { path: string }[] } };
      expect(error.issues.map((i) => i.path)).toContain(path);
    }
    const external = await call('/v1/runs', { body: scriptedRun({ agent: 'external', agent_endpoint: endpoint() }) });
    expect(external.status).toBe(400);
    expect(await external.text()).toContain('agent_endpoint');
    const after = await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });

  it('must be public in production: loopback, private and link-local URLs are refused without the operator override', () => {
    const production = { ...env, ALLOW_LOCAL_PROVIDERS: 'false' } as Env;
    for (const url of ['https://127.0.0.1/chat', 'https://10.1.2.3/chat', 'https://169.254.169.254/latest', 'https://[::1]/chat', 'http://agents.example/chat']) {
      const config = RunConfigSchema.parse({ domain: 'mock', agent_endpoint: { url } });
      expect(agentEndpointIssue(production, config), url).toMatchObject({ path: 'agent_endpoint.url' });
    }
    const config = RunConfigSchema.parse({ domain: 'mock', agent_endpoint: { url: 'https://agents.example/chat' } });
    expect(agentEndpointIssue(production, config)).toBeNull();
    expect(agentEndpointIssue({ ...production, CREDENTIALS_KEY: '' } as Env, RunConfigSchema.parse({ domain: 'mock', agent_endpoint: endpoint('https://agents.example/chat') }))).toMatchObject({
      path: 'agent_endpoint.headers',
    });
  });
});
