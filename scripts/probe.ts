// Probe: replays the attacks and careless requests the hosted service must withstand against a local worker
// (on 127.0.0.1, the fake provider of test/support/fake-openai.ts) and exits non-zero on any
// regression. Bounded: a few hundred requests, each with a timeout. Usage: npm run probe
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checklist, mockRun, startHarness } from '../test/support/load-harness.ts';
import { httpError, mockConversation } from '../test/support/fake-openai.ts';
import { filesHolding } from '../test/support/files-holding.ts';
import { groupAlive } from '../test/support/process-group.ts';
import { dumpsPy } from '../src/core/py/index.ts';
import type { PyInput } from '../src/core/py/index.ts';
import { probeContract } from './probe-contract.ts';
import { probeHardening } from './probe-hardening.ts';
import { probeFirstTouch } from './probe-first-touch.ts';
import { SOCKET_PROBE_LIMITS } from './probe-sockets.ts';
import { PROBE_MAX_SCHEDULES, probeTenancy } from './probe-tenancy.ts';
import { RUN_SIZE_LIMITS } from '../src/worker/tenancy/run-size-limits.ts';
import type { Sent } from './probe-hardening.ts';

const OPERATOR_KEY = 'probe-operator-key-5f1c';
const PROVIDER_KEY = 'sk-probe-provider-key-77aa';
const CREDENTIALS_KEY = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const { check, exitCode } = checklist();
/** Every response body the probe saw: no secret may appear in any of them. */
const seen: string[] = [];

const harness = await startHarness(mockConversation(), {
  workerVars: {
    API_KEY: OPERATOR_KEY,
    OPENAI_API_KEY: PROVIDER_KEY,
    CREDENTIALS_KEY,
    SSE_HEARTBEAT_MS: '300',
    // A deployed service's rules: tenants' endpoints must be public, and the operator limits on a run's size
    // hold (a local worker for the user's own runs lifts them).
    ALLOW_LOCAL_PROVIDERS: 'false',
    // An empty var is no positive integer, so the default of src/worker/tenancy/limits.ts applies, as when unset.
    ...Object.fromEntries(RUN_SIZE_LIMITS.map((name) => [name, ''])),
    ...Object.fromEntries(Object.entries(SOCKET_PROBE_LIMITS).map(([name, value]) => [name, String(value)])),
    LIMIT_MAX_SCHEDULES: String(PROBE_MAX_SCHEDULES),
  },
});
const base = harness.worker().url;

/**
 * fetch, sent once more when the connection it reused was already closed: the Worker answers an oversized body
 * with 413 before reading it and drops that connection, which the client's pool may hand to the next request.
 */
const fetchOnFreshSocket = async (url: string, init: RequestInit): Promise<Response> => {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    return fetch(url, init);
  }
};
const send = async (method: string, path: string, options: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {}): Promise<Sent> => {
  const key = options.key === undefined ? OPERATOR_KEY : options.key;
  const response = await fetchOnFreshSocket(`${base}${path}`, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : dumpsPy(options.body as PyInput) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  seen.push(text);
  return { status: response.status, headers: response.headers, text };
};
const errorOf = (sent: Sent): { code?: string; message?: string } => (JSON.parse(sent.text) as { error?: { code?: string; message?: string } }).error ?? {};
const run = (overrides: Record<string, unknown> = {}) => ({ ...mockRun({ task_ids: ['create_task_1'] }), ...overrides });
const runCount = async (key = OPERATOR_KEY): Promise<number> => (JSON.parse((await send('GET', '/v1/runs?limit=200', { key })).text) as { runs: unknown[] }).runs.length;
const waitDone = async (id: string, key = OPERATOR_KEY): Promise<string> => {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = (JSON.parse((await send('GET', `/v1/runs/${id}`, { key })).text) as { status: string }).status;
    if (status !== 'running' || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

try {
  // Authentication.
  check((await send('GET', '/v1/runs', { key: null })).status === 401, 'no key → 401');
  // The limit is 20 a minute in fixed windows: a burst that straddles a window's end still has 21 of 41 guesses in one.
  const guesses: number[] = [];
  for (let i = 0; i < 41 && guesses.at(-1) !== 429; i++) guesses.push((await send('GET', '/v1/runs', { key: `t2e_guess${i}`, headers: { 'cf-connecting-ip': '198.51.100.7' } })).status);
  check(guesses.slice(0, 20).every((status) => status === 401) && guesses.at(-1) === 429, 'repeated bad keys from one client → 429', guesses.join(','));

  // Work limits: every factor of a run's provider calls is bounded.
  const before = await runCount();
  for (const [field, value] of [['num_trials', 1_000_000], ['max_steps', 100_000], ['max_errors', 100_000], ['max_retries', 1_000], ['max_concurrency', 100_000], ['retry_delay', 1e9], ['timeout', 1e9]] as const) {
    const sent = await send('POST', '/v1/runs', { body: run({ [field]: value }) });
    check(sent.status === 400 && errorOf(sent).code === 'limit_exceeded' && errorOf(sent).message!.includes(field), `${field} ${value} → 400 limit_exceeded`, `${sent.status}`);
  }
  for (const args of [{ n: 5 }, { max_tokens: 10_000_000 }, { num_retries: 1_000 }, { extra_body: { max_tokens: 10_000_000 } }]) {
    const sent = await send('POST', '/v1/runs', { body: run({ llm_args_agent: args }) });
    check(sent.status === 400 && errorOf(sent).code === 'limit_exceeded', `llm_args ${JSON.stringify(args)} → 400`, `${sent.status}`);
  }
  const misspelt = await send('POST', '/v1/runs', { body: { ...run(), num_trial: 5 } });
  check(misspelt.status === 400 && errorOf(misspelt).message!.includes('num_trial'), 'an unknown field → 400 naming it', misspelt.text.slice(0, 120));
  const typed = await send('POST', '/v1/runs', { body: '{"domain": "mock", "max_steps": 5.5}' });
  check(typed.status === 400 && !typed.text.includes('PyFloat'), 'a wrong type is named without internal class names');
  const big = await send('POST', '/v1/runs', { body: JSON.stringify({ ...run(), llm_agent: 'x'.repeat(2_000_000) }) });
  check(big.status === 413, 'a 2 MB body → 413', `${big.status}`);
  const longName = await send('POST', '/v1/runs', { body: run({ llm_agent: 'm'.repeat(10_000) }) });
  check(longName.status === 400, 'a 10 KB model name → 400', `${longName.status}`);
  const ids = await send('POST', '/v1/runs', { body: run({ task_ids: Array.from({ length: 10_000 }, (_, i) => `no_task_${i}`) }) });
  check(ids.status === 400 && ids.text.length < 4_000, '10,000 unknown task ids → 400 with a capped echo', `${ids.text.length} bytes`);
  check((await send('POST', '/v1/runs', { body: run(), headers: { 'Idempotency-Key': '' } })).status === 400, 'an empty Idempotency-Key → 400');
  check((await runCount()) === before, 'no refused request created a run');

  const wrong = await send('DELETE', '/v1/runs');
  check(wrong.status === 405 && wrong.headers.get('allow') !== null, 'a wrong method → 405 with Allow', `${wrong.status} ${wrong.headers.get('allow')}`);

  const decimal = await send('POST', '/v1/runs', { body: run({ timeout: 30.5, retry_delay: 1.5 }) });
  check(decimal.status === 202, 'decimal timeout and retry_delay → 202', `${decimal.status}`);
  if (decimal.status === 202) check((await waitDone((JSON.parse(decimal.text) as { run_id: string }).run_id)) === 'completed', 'that run completes');

  // Schedules: unbounded values are refused; one bad schedule never stops the others.
  for (const body of [{ name: 'never', interval_minutes: 9007199254740991, run: run() }, { name: 'huge', interval_minutes: 60, run: run({ num_trials: 1_000_000 }) }]) {
    check((await send('POST', '/v1/schedules', { body })).status === 400, `schedule ${body.name} → 400`);
  }
  const schedule = JSON.parse((await send('POST', '/v1/schedules', { body: { name: 'probe', interval_minutes: 60, run: run() } })).text) as { id: string; next_run_at: string };
  const squatter = await send('POST', '/v1/runs', { body: run(), headers: { 'Idempotency-Key': `schedule:${schedule.id}:${schedule.next_run_at}` } });
  await fetch(`${base}/cdn-cgi/local/scheduled?cron=*+*+*+*+*`, { signal: AbortSignal.timeout(30_000) });
  const launched = JSON.parse((await send('GET', `/v1/schedules/${schedule.id}`)).text) as { last_run_id: string | null };
  check(launched.last_run_id !== null && launched.last_run_id !== (JSON.parse(squatter.text) as { run_id: string }).run_id, "the cron launches the schedule; a caller's key cannot take its place");

  // Event streams: a heartbeat while quiet; departed clients leave nothing behind.
  const slow = JSON.parse((await send('POST', '/v1/runs', { body: run({ task_ids: ['create_task_1', 'update_task_1'], num_trials: 4, max_concurrency: 1 }) })).text) as { run_id: string };
  harness.fake.setHandler(mockConversation({ delayMs: 400 }));
  const stream = await fetch(`${base}/v1/runs/${slow.run_id}/events`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let events = '';
  const heartbeatBy = Date.now() + 10_000;
  while (!events.includes(': heartbeat') && Date.now() < heartbeatBy) events += (await reader.read()).value ?? '';
  check(events.includes(': heartbeat'), 'a quiet event stream sends heartbeats');
  await reader.cancel();
  const dropped = await Promise.all(
    Array.from({ length: 50 }, async () => {
      const controller = new AbortController();
      const response = await fetch(`${base}/v1/runs/${slow.run_id}/events`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` }, signal: controller.signal });
      controller.abort();
      return response.status;
    }),
  );
  check(dropped.every((s) => s === 200), '50 clients connect and leave');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  // Sockets the worker's port left half-closed (`ss` from iproute2); a missing `ss` fails the check rather than passing it.
  const { stdout } = await promisify(execFile)('ss', ['-tn', 'state', 'close-wait', `( sport = :${harness.worker().port} )`]).catch((error: Error) => ({ stdout: `error ${error.message}` }));
  const closeWait = stdout.startsWith('error') ? Number.NaN : stdout.split('\n').filter((line) => line.includes(`:${harness.worker().port}`)).length;
  check(closeWait <= 2, 'their sockets are closed (no CLOSE-WAIT pile-up)', Number.isNaN(closeWait) ? stdout : String(closeWait));
  harness.fake.setHandler(mockConversation());
  await send('POST', `/v1/runs/${slow.run_id}/cancel`);

  // A failing provider: an infrastructure error whose traceback shows no stack frames.
  const conversation = mockConversation();
  harness.fake.setHandler(async (request) => ((request.body as { model?: string }).model === 'no-such-model' ? httpError(400, 'scripted failure') : conversation(request)));
  const broken = JSON.parse((await send('POST', '/v1/runs', { body: run({ llm_agent: 'no-such-model', max_retries: 0 }) })).text) as { run_id: string };
  await waitDone(broken.run_id);
  const results = (await send('GET', `/v1/runs/${broken.run_id}/results`)).text;
  check(!/\bat .*\.(?:js|ts):\d+/.test(results) && !results.includes('/src/'), 'error tracebacks show type and message, no stack frames or paths');
  harness.fake.setHandler(mockConversation());

  // Tenants: nothing of one is visible to another.
  const keyOf = async (tenant: string): Promise<string> => (JSON.parse((await send('POST', '/v1/admin/keys', { body: { tenant, name: tenant } })).text) as { key: string }).key;
  const [acme, globex] = [await keyOf('probe-acme'), await keyOf('probe-globex')];
  const own = JSON.parse((await send('POST', '/v1/runs', { body: run(), key: acme })).text) as { run_id: string };
  for (const path of [`/v1/runs/${own.run_id}`, `/v1/runs/${own.run_id}/results`, `/v1/runs/${own.run_id}/events`]) {
    check((await send('GET', path, { key: globex })).status === 404, `another tenant's GET ${path.replace(own.run_id, ':id')} → 404`);
  }
  check((await send('POST', `/v1/runs/${own.run_id}/cancel`, { key: globex })).status === 404, "another tenant's cancel → 404");
  check((await runCount(globex)) === 0, "another tenant's list is empty");
  check((await send('GET', '/v1/admin/keys', { key: acme })).status === 404, 'admin routes do not exist for a tenant');

  // Bring-your-own provider, agent and role endpoints: internal ones refused; keys never shown.
  for (const url of ['http://api.example.com/v1', 'https://127.0.0.1/v1', 'https://169.254.169.254/v1', 'https://[::1]/v1', 'https://10.0.0.1/v1']) {
    check((await send('PUT', '/v1/provider-credentials/openai', { key: acme, body: { base_url: url, api_key: 'sk-probe-tenant' } })).status === 400, `provider endpoint ${url} → 400`);
    const agentEndpoint = { url: `${url}/chat/completions`, headers: { 'x-agent-key': 'sk-probe-agent-endpoint' } };
    check((await send('POST', '/v1/runs', { key: acme, body: run({ agent_endpoint: agentEndpoint }) })).status === 400, `agent endpoint ${url} → 400`);
    check((await send('POST', '/v1/runs', { key: acme, body: run({ llm_args_user: { api_base: url } }) })).status === 400, `a role's api_base ${url} → 400`);
  }
  check((await send('PUT', '/v1/provider-credentials/google', { key: acme, body: { api_key: 'sk-probe-tenant-google' } })).status === 200, 'a tenant stores a provider key');
  await send('GET', '/v1/provider-credentials', { key: acme });
  await waitDone(own.run_id, acme);

  // Quotas are reserved, not checked: launches at once at every quota edge create at most the quota.
  {
    const AT_ONCE = 30;
    const tenantKey = async (tenant: string): Promise<string> => (JSON.parse((await send('POST', '/v1/admin/keys', { body: { tenant, name: tenant } })).text) as { key: string }).key;
    const setQuotas = (tenant: string, quotas: Record<string, number>) => send('PUT', `/v1/admin/tenants/${tenant}/quotas`, { body: quotas });
    const usage = async (tenant: string) => (JSON.parse((await send('GET', `/v1/admin/tenants/${tenant}/quotas`)).text) as { usage: Record<string, number> }).usage;
    const atOnce = (make: (i: number) => Promise<Sent>): Promise<Sent[]> => Promise.all(Array.from({ length: AT_ONCE }, (_, i) => make(i)));
    const tally = (sent: readonly Sent[]): Record<number, number> => sent.reduce<Record<number, number>>((n, s) => ({ ...n, [s.status]: (n[s.status] ?? 0) + 1 }), {});
    const count = (sent: readonly Sent[], status: number): number => sent.filter((s) => s.status === status).length;

    const runsKey = await tenantKey('probe-quota-runs');
    await setQuotas('probe-quota-runs', { episodes_per_day: 10 });
    const runs = await atOnce(() => send('POST', '/v1/runs', { key: runsKey, body: run() }));
    const runsUsage = await usage('probe-quota-runs');
    check(count(runs, 202) === 10 && runsUsage.episodes_today === 10, `${AT_ONCE} runs at once at episodes_per_day 10 → 10 created`, `${JSON.stringify(tally(runs))} usage ${runsUsage.episodes_today}`);

    const episodesKey = await tenantKey('probe-quota-episodes');
    await setQuotas('probe-quota-episodes', { episodes_in_flight: 3 });
    const episodes = await atOnce(() => send('POST', '/v1/episodes', { key: episodesKey, body: { domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user' } }));
    const inFlight = (await usage('probe-quota-episodes')).episodes_in_flight!;
    check(count(episodes, 429) === AT_ONCE - 3 && inFlight <= 3, `${AT_ONCE} episodes at once at episodes_in_flight 3 → 3 created`, `${JSON.stringify(tally(episodes))} in flight ${inFlight}`);

    const schedulesKey = await tenantKey('probe-quota-schedules');
    await setQuotas('probe-quota-schedules', { schedules: 2 });
    const schedules = await atOnce(() => send('POST', '/v1/schedules', { key: schedulesKey, body: { name: 'race', interval_minutes: 60, run: run() } }));
    check(count(schedules, 201) === 2, `${AT_ONCE} schedules at once at schedules 2 → 2 created`, JSON.stringify(tally(schedules)));

    const replayKey = await tenantKey('probe-quota-replay');
    await setQuotas('probe-quota-replay', { episodes_per_day: 1 });
    const replays = await atOnce(() => send('POST', '/v1/runs', { key: replayKey, body: run(), headers: { 'Idempotency-Key': 'probe-replay' } }));
    const replayed = new Set(replays.map((s) => s.text));
    check(count(replays, 202) === AT_ONCE && replayed.size === 1 && (await usage('probe-quota-replay')).episodes_today === 1, `one Idempotency-Key ${AT_ONCE} times at once → one run, counted once`, JSON.stringify(tally(replays)));

    // Reruns count: infrastructure errors re-run at once stop at the daily quota.
    const rerunKey = await tenantKey('probe-quota-rerun');
    const failing = mockConversation();
    harness.fake.setHandler(async (request) => ((request.body as { model?: string }).model === 'no-such-model' ? httpError(400, 'scripted failure') : failing(request)));
    const broken = await atOnce(() => send('POST', '/v1/runs', { key: rerunKey, body: run({ llm_agent: 'no-such-model', max_retries: 0 }) }));
    const brokenIds = broken.map((s) => (JSON.parse(s.text) as { run_id: string }).run_id);
    for (const id of brokenIds) await waitDone(id, rerunKey);
    await setQuotas('probe-quota-rerun', { episodes_per_day: AT_ONCE + 5 });
    const reruns = await atOnce((i) => send('POST', `/v1/runs/${brokenIds[i]}/rerun-infra-errors`, { key: rerunKey }));
    const rerunUsage = await usage('probe-quota-rerun');
    check(count(reruns, 202) === 5 && rerunUsage.episodes_today === AT_ONCE + 5, `${AT_ONCE} reruns at once past a spent daily quota → 5 re-run`, `${JSON.stringify(tally(reruns))} usage ${rerunUsage.episodes_today}`);
    for (const id of brokenIds) await waitDone(id, rerunKey);
    harness.fake.setHandler(mockConversation());

    // Scheduled launches: ticks of the cron at once, each launching every due schedule of the tenant.
    const cronKey = await tenantKey('probe-quota-cron');
    await Promise.all(Array.from({ length: 10 }, () => send('POST', '/v1/schedules', { key: cronKey, body: { name: 'cron race', interval_minutes: 60, run: run() } })));
    await setQuotas('probe-quota-cron', { episodes_per_day: 5 });
    await Promise.all(Array.from({ length: AT_ONCE }, () => fetch(`${base}/cdn-cgi/local/scheduled?cron=*+*+*+*+*`, { signal: AbortSignal.timeout(60_000) })));
    const settledBy = Date.now() + 60_000;
    let tried: { last_run_id: string | null; last_error: string | null }[] = [];
    do {
      await new Promise((resolve) => setTimeout(resolve, 300));
      tried = (JSON.parse((await send('GET', '/v1/schedules', { key: cronKey })).text) as { schedules: typeof tried }).schedules;
    } while (tried.some((s) => s.last_run_id === null && s.last_error === null) && Date.now() < settledBy);
    const cronUsage = await usage('probe-quota-cron');
    check(tried.filter((s) => s.last_run_id !== null).length === 5 && cronUsage.episodes_today === 5, `${AT_ONCE} cron ticks at once over 10 due schedules at episodes_per_day 5 → 5 launched`, `usage ${cronUsage.episodes_today}`);
  }

  await probeHardening({ harness, base, operatorKey: OPERATOR_KEY, send, check, run, waitDone });
  await probeTenancy({ harness, base, operatorKey: OPERATOR_KEY, send, check, run, waitDone });
  await probeContract({ harness, base, operatorKey: OPERATOR_KEY, send, check, run, waitDone });
  await probeFirstTouch({ harness, base, operatorKey: OPERATOR_KEY, send, check, run, waitDone });

  const leaked = [OPERATOR_KEY, PROVIDER_KEY, 'sk-probe-tenant-google', 'sk-probe-agent-endpoint'].filter((secret) => seen.some((text) => text.includes(secret)));
  check(leaked.length === 0, 'no secret appears in any response', leaked.join(', '));
  const log = await readFile(harness.worker().logFile, 'utf8');
  check(![OPERATOR_KEY, PROVIDER_KEY, 'sk-probe-tenant-google', acme, globex].some((secret) => log.includes(secret)), "no secret appears in the worker's log");

  // Killed outright, as a crash would (nothing of it can clean up): no file of the worker's folders holds its secrets.
  const { pid } = harness.worker();
  process.kill(-pid, 'SIGKILL');
  for (let n = 0; n < 100 && groupAlive(pid); n++) await new Promise((resolve) => setTimeout(resolve, 100));
  const workDirs = (await readdir(tmpdir())).filter((name) => name.startsWith('tau2-edge-worker-')).map((name) => path.join(tmpdir(), name));
  const onDisk = (await Promise.all([harness.stateDir, ...workDirs].flatMap((dir) => [OPERATOR_KEY, PROVIDER_KEY, CREDENTIALS_KEY].map((secret) => filesHolding(dir, secret))))).flat();
  check(!groupAlive(pid) && onDisk.length === 0, "the worker's process group killed outright leaves no secret on disk", onDisk.join(', '));
} finally {
  await harness.close();
}
process.exitCode = exitCode();
