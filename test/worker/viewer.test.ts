// The web viewer in the Worker: sign-in exchanges an API key for an HttpOnly session cookie; pages read the API
// as that session's tenant; a cookie-authenticated change needs the session's CSRF token; a revoked key ends
// its sessions; no page shows a key.
import { describe, expect, it } from 'vitest';
import { exports } from 'cloudflare:workers';
import { BASE, call, pyBody, startRun, waitForRun, wellInsideLimiterWindow } from './support/api.ts';
import { API_KEY, SCRIPT_MODELS, scriptedRun } from './support/script.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import type { RunUsage } from '../../src/api/index.ts';
import { resultsUsage } from '../../src/core/metrics/role-usage.ts';

const page = (path: string, init: RequestInit = {}): Promise<Response> => exports.default.fetch(`${BASE}${path}`, { redirect: 'manual', ...init });

const form = (fields: Record<string, string>, cookie?: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE, ...(cookie ? { cookie } : {}) },
  body: new URLSearchParams(fields).toString(),
});

const signIn = async (key: string): Promise<string> => {
  const response = await page('/login', form({ api_key: key, next: '/' }));
  expect(response.status).toBe(303);
  const setCookie = response.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(/^tau2_session=/);
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Strict/i);
  expect(setCookie).not.toContain(key);
  return setCookie.split(';')[0]!;
};

const csrfTokenOf = (htmlText: string): string => /name="csrf" value="([0-9a-f]+)"/.exec(htmlText)?.[1] ?? '';

const tenantKey = async (tenant: string): Promise<{ id: string; key: string }> =>
  (await pyBody(await call('/v1/admin/keys', { body: { tenant, name: `${tenant} browser` } }))) as { id: string; key: string };

describe('web viewer: sign-in and sessions', () => {
  it('a page without a session redirects to sign-in; a wrong key is refused with 401 and no cookie', async () => {
    const response = await page('/runs/abc');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login?next=%2Fruns%2Fabc');
    const refused = await page('/login', form({ api_key: 'not-a-key' }));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(await refused.text()).toContain('That API key is not valid.');
  });

  it("failed sign-ins share the API's failed-authentication limit: 429 with Retry-After, no cookie, other clients unaffected", async () => {
    const from = (ip: string, key: string) =>
      page('/login', { ...form({ api_key: key }), headers: { ...(form({}).headers as Record<string, string>), 'cf-connecting-ip': ip } });
    await wellInsideLimiterWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await from('198.51.100.7', `wrong-${i}`)).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    const throttled = await from('198.51.100.7', 'wrong-again');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('60');
    expect(throttled.headers.get('set-cookie')).toBeNull();
    expect(await throttled.text()).toContain('Too many failed sign-ins');
    // Only failures are limited: another client is unaffected, and the right key still signs in.
    expect((await from('198.51.100.8', 'wrong-elsewhere')).status).toBe(401);
    expect((await from('198.51.100.7', API_KEY)).status).toBe(303);
  });

  it('a form posted from another origin is refused', async () => {
    const response = await page('/login', { ...form({ api_key: API_KEY }), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('sign-in redirects only to a path of this site', async () => {
    const response = await page('/login', form({ api_key: API_KEY, next: '//evil.example/x' }));
    expect(response.headers.get('location')).toBe('/');
  });

  it('sign-in keeps `next` only when it resolves to this origin, and refuses control characters', async () => {
    const cases: [string, string][] = [
      ['/\t/evil.example', '/'],
      ['/\n/evil.example', '/'],
      ['/\\evil.example', '/'],
      ['https://evil.example/runs', '/'],
      ['javascript:alert(1)', '/'],
      [`${BASE}/runs/abc?x=1#m`, '/runs/abc?x=1#m'],
      ['/runs/abc', '/runs/abc'],
    ];
    for (const [next, location] of cases) {
      const response = await page('/login', form({ api_key: API_KEY, next }));
      expect(response.status, next).toBe(303);
      expect(response.headers.get('location'), next).toBe(location);
    }
    // The sign-in page carries `next` into its form only when it passes the same rule.
    const shown = await (await page('/login?next=/%09/evil.example')).text();
    expect(shown).toContain('name="next" value="/"');
    expect(shown).not.toContain('evil.example');
  });

  it('sign-in checks the path the browser will follow: dot segments that leave `//` or `/\\` fall back to /', async () => {
    const dotted = ['/.//evil.example', '/..//x', '/%2e//x', '/%2E%2E//x', '/a/..//x', '/./\\x', '/x/../..//x', '/././/x', '/.%2e//x'];
    for (const next of dotted) {
      const response = await page('/login', form({ api_key: API_KEY, next }));
      expect(response.status, next).toBe(303);
      expect(response.headers.get('location'), next).toBe('/');
    }
    // A dot segment that still leaves a path of this site is kept, normalised.
    expect((await page('/login', form({ api_key: API_KEY, next: '/a/../runs/abc' }))).headers.get('location')).toBe('/runs/abc');
    const shown = await (await page('/login?next=/.//evil.example')).text();
    expect(shown).toContain('name="next" value="/"');
    expect(shown).not.toContain('evil.example');
  });

  it('the session reads the API as its tenant: the runs page lists its own runs only, with a CSP nonce', async () => {
    const operatorRun = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
    const { key } = await tenantKey('viewer-acme');
    const acmeRun = await startRun(scriptedRun({ task_ids: ['create_task_1'] }), { authorization: `Bearer ${key}` });
    await Promise.all([waitForRun(operatorRun), waitForRun(acmeRun, { apiKey: key })]);

    const cookie = await signIn(key);
    const response = await page('/', { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'/);
    const text = await response.text();
    expect(text).toContain(`data-run="${acmeRun}"`);
    expect(text).not.toContain(operatorRun);
    expect(text).not.toContain(key);
    // Another tenant's run is as unknown as a missing one.
    expect((await page(`/runs/${operatorRun}`, { headers: { cookie } })).status).toBe(404);
    const own = await page(`/runs/${acmeRun}`, { headers: { cookie } });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('id="tasks"');
  });

  it('the API takes the session cookie for reads; a change needs the CSRF token', async () => {
    const cookie = await signIn(API_KEY);
    expect((await page('/v1/runs', { headers: { cookie } })).status).toBe(200);
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, num_trials: 4 }));
    const noToken = await page(`/v1/runs/${runId}/cancel`, { method: 'POST', headers: { cookie } });
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as { error: { code: string } }).error.code).toBe('csrf_failed');

    const runPage = await (await page(`/runs/${runId}`, { headers: { cookie } })).text();
    const token = csrfTokenOf(runPage);
    expect(token).not.toBe('');
    // The page's own cancel form (token in the form) cancels; a forged one without it does not.
    const forged = await page(`/runs/${runId}/cancel`, form({}, cookie));
    expect(forged.status).toBe(403);
    const cancelled = await page(`/runs/${runId}/cancel`, form({ csrf: token }, cookie));
    expect(cancelled.status).toBe(303);
    expect(((await pyBody(await call(`/v1/runs/${runId}`))) as { status: string }).status).toBe('cancelled');
  });

  it('a revoked key ends its sessions', async () => {
    const { id, key } = await tenantKey('viewer-revoked');
    const cookie = await signIn(key);
    expect((await page('/', { headers: { cookie } })).status).toBe(200);
    expect((await call(`/v1/admin/keys/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await page('/', { headers: { cookie } })).status).toBe(303);
    expect((await page('/v1/runs', { headers: { cookie } })).status).toBe(401);
  });

  it("a simulation's DB differences name the gold change the agent did not make; another tenant's is unknown", async () => {
    // The scripted agent creates a task where update_task_1's gold action completes task_1.
    const runId = await startRun(scriptedRun({ task_ids: ['update_task_1'] }));
    await waitForRun(runId);
    const results = (await pyBody(await call(`/v1/runs/${runId}/results`))) as { simulations: { id: string }[] };
    const simId = results.simulations[0]!.id;
    const diff = (await (await call(`/v1/simulations/${simId}/db-diff`)).json()) as {
      db_match: boolean;
      differences: { db: string; path: string[]; gold: string | null; predicted: string | null }[];
    };
    expect(diff.db_match).toBe(false);
    expect(diff.differences.every((d) => d.db === 'agent')).toBe(true);
    const at = (path: string) => diff.differences.find((d) => d.path.join('.') === path);
    expect(at('tasks.task_1.status')).toEqual({ db: 'agent', path: ['tasks', 'task_1', 'status'], gold: '"completed"', predicted: '"pending"' });
    expect(diff.differences.some((d) => d.gold === null && d.predicted?.includes('Important Meeting'))).toBe(true);
    const { key } = await tenantKey('viewer-diff');
    expect((await call(`/v1/simulations/${simId}/db-diff`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
  });

  it('GET /v1/runs filters by domain and by model (agent or user), as the runs page asks', async () => {
    const slow = await startRun(scriptedRun({ task_ids: ['create_task_1'], llm_agent: SCRIPT_MODELS.slowAgent }));
    const plain = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
    const ids = async (query: string) => ((await pyBody(await call(`/v1/runs?limit=200&${query}`))) as { runs: { id: string }[] }).runs.map((r) => r.id);
    const bySlowModel = await ids(`model=${SCRIPT_MODELS.slowAgent}`);
    expect(bySlowModel).toContain(slow);
    expect(bySlowModel).not.toContain(plain);
    expect(await ids(`model=${SCRIPT_MODELS.user}`)).toEqual(expect.arrayContaining([slow, plain]));
    expect(await ids('domain=mock')).toEqual(expect.arrayContaining([slow, plain]));
    expect(await ids('domain=airline')).toEqual([]);
    expect((await call(`/v1/runs?domain=${'x'.repeat(257)}`)).status).toBe(400);
    await call(`/v1/runs/${slow}/cancel`, { method: 'POST' });
    await waitForRun(plain);
  });

  it('GET /v1/runs keeps the runs the caller plays in apart: kind=external lists them, kind=evaluation the others', async () => {
    const plain = await startRun(scriptedRun({ task_ids: ['create_task_1'] }));
    const episode = (await pyBody(await call('/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', llm_user: SCRIPT_MODELS.user } }))) as { run_id: string };
    const asUser = (await pyBody(await call('/v1/episodes', { body: { domain: 'mock', task_id: 'create_task_1', role: 'user', llm_agent: SCRIPT_MODELS.agent } }))) as { run_id: string };
    const ids = async (query: string) => ((await pyBody(await call(`/v1/runs?limit=200&${query}`))) as { runs: { id: string }[] }).runs.map((r) => r.id);
    const external = await ids('kind=external');
    expect(external).toEqual(expect.arrayContaining([episode.run_id, asUser.run_id]));
    expect(external).not.toContain(plain);
    const evaluations = await ids('kind=evaluation');
    expect(evaluations).toContain(plain);
    expect(evaluations).not.toContain(episode.run_id);
    expect(evaluations).not.toContain(asUser.run_id);
    expect(await ids('')).toEqual(expect.arrayContaining([plain, episode.run_id, asUser.run_id]));
    const refused = await call('/v1/runs?kind=rl');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('kind');
    await waitForRun(plain);
  });

  it('runs split by retrieval configuration: GET /v1/runs filters by it, the pages show it, filter by it and compare across it', async () => {
    const banking = (retrieval_config: string) => scriptedRun({ domain: 'banking_knowledge', retrieval_config, task_ids: ['task_004'] });
    const [nk, bm25, mock] = await Promise.all([startRun(banking('no_knowledge')), startRun(banking('bm25')), startRun(scriptedRun({ task_ids: ['create_task_1'] }))]);
    // A run naming no configuration records the domain's default, as its results do.
    const unnamed = await startRun(scriptedRun({ domain: 'banking_knowledge', task_ids: ['task_004'] }));
    await Promise.all([waitForRun(nk), waitForRun(bm25), waitForRun(mock), waitForRun(unnamed)]);
    const ids = async (query: string) => ((await pyBody(await call(`/v1/runs?limit=200&${query}`))) as { runs: { id: string }[] }).runs.map((r) => r.id);
    expect(await ids('retrieval_config=bm25')).toEqual([bm25]);
    expect(await ids('retrieval_config=no_knowledge&domain=banking_knowledge')).toEqual([nk]);
    expect(await ids('retrieval_config=bm25&domain=mock')).toEqual([]);
    expect(await ids('retrieval_config=alltools')).toEqual([unnamed]);
    expect(((await pyBody(await call(`/v1/runs/${mock}`))) as { config: { retrieval_config: string | null } }).config.retrieval_config).toBeNull();
    expect((await call('/v1/runs?retrieval_config=')).status).toBe(400);

    const cookie = await signIn(API_KEY);
    const runs = await (await page('/', { headers: { cookie } })).text();
    expect(runs).toContain(`<tr data-run="${bm25}" data-status="completed" data-retrieval-config="bm25">`);
    expect(runs).toMatch(/<select name="retrieval_config"><option value="">any<\/option><option value="alltools" >alltools<\/option><option value="bm25" >bm25<\/option><option value="no_knowledge" >/);
    const filtered = await (await page('/?retrieval_config=no_knowledge', { headers: { cookie } })).text();
    expect(filtered).toContain(`data-run="${nk}"`);
    expect(filtered).not.toContain(`data-run="${bm25}"`);
    expect(filtered).not.toContain(`data-run="${mock}"`);

    const runPage = await (await page(`/runs/${nk}`, { headers: { cookie } })).text();
    expect(runPage).toContain('data-field="retrieval-config">no_knowledge<');
    expect(runPage).toContain(`href="/compare?a=${nk}&amp;b=${bm25}">compare with bm25</a>`);
    const compare = await (await page(`/compare?a=${nk}&b=${bm25}`, { headers: { cookie } })).text();
    expect(compare).toContain('data-field="config-a">no_knowledge<');
    expect(compare).toContain('data-field="config-b">bm25<');
  });

  it('the light reads the run page uses: results without messages, and the usage by role the results file records', async () => {
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1', 'update_task_1'], num_trials: 2 }));
    await waitForRun(runId);
    const full = ResultsSchema.parse(await pyBody(await call(`/v1/runs/${runId}/results`)));
    const light = ResultsSchema.parse(await pyBody(await call(`/v1/runs/${runId}/results?messages=false`)));
    expect(light.simulations.map((s) => s.messages)).toEqual(full.simulations.map(() => null));
    expect(light.simulations.map((s) => ({ ...s, messages: null }))).toEqual(full.simulations.map((s) => ({ ...s, messages: null })));
    const usage = (await (await call(`/v1/runs/${runId}/usage`)).json()) as RunUsage;
    const expected = resultsUsage(full);
    expect(usage.agent.prompt_tokens).toBeGreaterThan(0);
    // The results file keeps no ledger: beside the by-role split, the API adds the run's metered calls (every call made).
    expect(usage).toEqual({ ...expected, metered: { usd: 0, calls: usage.total.calls, in_flight: 0 } });
    expect((await call(`/v1/runs/${runId}/results?messages=no`)).status).toBe(400);
  });

  it('a tampered cookie is refused', async () => {
    const cookie = await signIn(API_KEY);
    const [name, value] = cookie.split('=') as [string, string];
    const forged = decodeURIComponent(value).replace('"tenant":"operator"', '"tenant":"viewer-acme"');
    expect((await page('/v1/runs', { headers: { cookie: `${name}=${encodeURIComponent(forged)}` } })).status).toBe(401);
  });
});

describe('usage and cost by role', () => {
  // gpt-4.1-mini: $0.40 / $1.60 per million prompt / completion tokens, $0.10 cached; gpt-4o-mini: $0.15 / $0.60.
  const AGENT_CALL_USD = 600 * 4e-7 + 400 * 1e-7 + 100 * 1.6e-6;
  const JUDGE_CALL_USD = 2000 * 1.5e-7 + 50 * 6e-7;

  it('GET /v1/runs/:id, the simulation record, the results file and the run page split tokens and cost by role; an unpriced model reads unpriced', async () => {
    // Retail task 2 is graded on NL assertions, so the judge is called once the user stops.
    const runId = await startRun(scriptedRun({ domain: 'retail', task_ids: ['2'], llm_agent: SCRIPT_MODELS.pricedAgent, llm_judge: SCRIPT_MODELS.pricedJudge }));
    const run = await waitForRun(runId);
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0 });
    const { usage } = run;
    expect(usage.agent).toMatchObject({ calls: 2, prompt_tokens: 2000, completion_tokens: 200, cache_read_tokens: 800, reasoning_tokens: 120, unpriced_models: [] });
    expect(usage.agent.cost).toBeCloseTo(2 * AGENT_CALL_USD, 12);
    expect(usage.user).toMatchObject({ calls: 2, cost: 0, unpriced_models: [SCRIPT_MODELS.user] });
    expect(usage.judge).toMatchObject({ calls: 1, prompt_tokens: 2000, completion_tokens: 50, unpriced_models: [] });
    expect(usage.judge.cost).toBeCloseTo(JUDGE_CALL_USD, 12);
    expect(usage.total).toMatchObject({ calls: 5, unpriced_models: [SCRIPT_MODELS.user] });
    expect(usage.total.cost).toBeCloseTo(2 * AGENT_CALL_USD + JUDGE_CALL_USD, 12);

    // Each simulation carries its own split (in `info`), so the results file sums to the same totals.
    const results = ResultsSchema.parse(await pyBody(await call(`/v1/runs/${runId}/results`)));
    const { metered, ...byRole } = usage;
    expect(resultsUsage(results)).toEqual(byRole);
    // Every call of the run was metered as made: the priced ones at the cost the simulations recorded.
    expect(metered).toMatchObject({ calls: 5, in_flight: 0 });
    expect(metered!.usd).toBeCloseTo(2 * AGENT_CALL_USD + JUDGE_CALL_USD, 12);
    expect(await (await call(`/v1/runs/${runId}/usage`)).json()).toEqual(usage);

    const cookie = await signIn(API_KEY);
    const runPage = await (await page(`/runs/${runId}`, { headers: { cookie } })).text();
    const row = (role: string) => {
      const cells = new RegExp(`<tr data-role="${role}"><th scope="row">[A-Za-z]+</th>((?:<td class="num">[^<]*</td>)+)</tr>`).exec(runPage)?.[1] ?? '';
      return [...cells.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
    };
    expect(row('agent')).toEqual(['2', '2000', '800', '0', '200', '120', '$0.0009']);
    expect(row('user')).toEqual(['2', expect.any(String), '0', '0', expect.any(String), '0', `unpriced (${SCRIPT_MODELS.user})`]);
    expect(row('judge')).toEqual(['1', '2000', '0', '0', '50', '0', '$0.0003']);
    expect(row('retrieval')?.at(-1)).toBe('none');
    expect(row('total')?.at(-1)).toBe(`$0.0012 + unpriced (${SCRIPT_MODELS.user})`);
  });
});
