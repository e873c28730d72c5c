// The viewer never misleads, in real Chromium against a local worker and the scripted provider: compare's
// headline on runs of different task sets, a run whose every simulation failed (the provider refused the key),
// tool results and task order, the task search and failures-only filter, schedules managed from the page, every
// page at a phone's 430 px, and /docs with no request leaving 127.0.0.1.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLocalWorker } from '../../src/cli/local/worker.ts';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import { apiClient } from '../../src/client/index.ts';
import type { ApiClient } from '../../src/client/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import type { Results } from '../../src/core/schemas/simulation.ts';
import { httpError, mockConversation, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeHandler, FakeOpenAI } from '../support/fake-openai.ts';
import { creatingAgent, stopAll, waitFinished } from '../support/viewer-runs.ts';
import { ARTIFACTS_DIR, browserMissing, launchChromium } from '../support/browser.ts';

const OPERATOR_KEY = 'browser-pages-operator-key';
const REFUSED_KEY_AGENT = 'refused-key-agent';
const PROVIDER_REFUSAL = 'Incorrect API key provided: sk-fake***. You can find your API key in your account settings.';
const CREATING_AGENT = 'creating-agent';
const PHONE = { width: 430, height: 932 };
/** A deployment's long model name: what stretches a page's pickers and headings past a phone's width. */
const LONG_MODEL = 'fake-agent-deployment-with-a-long-name-2026-11-27-eu-west';
const missing = browserMissing();
if (missing) console.log(`browser tests skipped: ${missing}`);

let fake: FakeOpenAI;
let worker: LocalWorker;
let api: ApiClient;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dir: string;
/** Runs of different task sets: two tasks shared, one task each of their own. */
let runA: string;
let runB: string;
/** Every simulation an infrastructure error: the provider refuses the key. */
let refusedRun: string;

const runConfig = (agentModel: string, taskIds: string[]) =>
  RunConfigSchema.parse({ domain: 'mock', llm_agent: agentModel, llm_user: 'fake-user', llm_judge: 'fake-user', num_trials: 1, task_ids: taskIds, max_concurrency: 2 });

const field = (name: string) => page.locator(`[data-field="${name}"]`).first();
const taskIdsShown = () => page.locator('#tasks tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task')));

/** Each task's scored rewards. */
const rewardsByTask = (results: Results): Map<string, number[]> => {
  const byTask = new Map<string, number[]>();
  for (const s of results.simulations) {
    if (s.termination_reason === 'infrastructure_error' || !s.reward_info) continue;
    byTask.set(s.task_id, [...(byTask.get(s.task_id) ?? []), s.reward_info.reward.value]);
  }
  return byTask;
};
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe.skipIf(missing !== null)('viewer pages in Chromium', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-browser-pages-'));
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    fake = await startFakeOpenAI();
    const instant = mockConversation();
    const creating = creatingAgent(instant);
    const byModel: Record<string, FakeHandler> = { [CREATING_AGENT]: creating, [REFUSED_KEY_AGENT]: () => httpError(401, PROVIDER_REFUSAL) };
    fake.setHandler((request) => (byModel[(request.body as { model?: string }).model ?? ''] ?? instant)(request));
    worker = await startLocalWorker({ persistTo: path.join(dir, 'state'), logFile: path.join(dir, 'worker.log'), env: { OPENAI_BASE_URL: fake.baseURL, API_KEY: OPERATOR_KEY }, readyTimeoutMs: 180_000 });
    api = apiClient(worker.url, OPERATOR_KEY);
    runA = (await api.createRun(runConfig(LONG_MODEL, ['update_task_1', 'create_task_1', 'impossible_task_1']))).run_id;
    runB = (await api.createRun(runConfig(CREATING_AGENT, ['create_task_1', 'update_task_1', 'update_task_with_user_tools']))).run_id;
    refusedRun = (await api.createRun(runConfig(REFUSED_KEY_AGENT, ['create_task_1']))).run_id;
    await Promise.all([runA, runB, refusedRun].map((id) => waitFinished(api, id, 120_000)));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${worker.url}/login`);
    await page.getByLabel('API key').fill(OPERATOR_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${worker.url}/`);
  }, 420_000);

  afterAll(() => stopAll({ browser, worker, fake, dir }));

  it("compare's headline is computed on the tasks both runs scored, says how many, and lists the others", async () => {
    await page.goto(`${worker.url}/compare?a=${runA}&b=${runB}`);
    const [a, b] = await Promise.all([api.results(runA), api.results(runB)]).then((r) => r.map(rewardsByTask));
    const shared = [...a!.keys()].filter((t) => b!.has(t));
    expect(shared.sort()).toEqual(['create_task_1', 'update_task_1']);
    const avgOnShared = (rewards: Map<string, number[]>) => mean(shared.flatMap((t) => rewards.get(t)!));
    const delta = avgOnShared(b!) - avgOnShared(a!);
    await expect(field('shared-count').textContent()).resolves.toBe('2');
    await expect(field('avg-a').textContent()).resolves.toBe(avgOnShared(a!).toFixed(3));
    await expect(field('avg-b').textContent()).resolves.toBe(avgOnShared(b!).toFixed(3));
    await expect(field('avg-delta').textContent()).resolves.toBe(`${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta).toFixed(3)}`);
    await expect(page.locator('#only-a').textContent()).resolves.toContain('impossible_task_1');
    await expect(page.locator('#only-b').textContent()).resolves.toContain('update_task_with_user_tools');
    await expect(page.locator('#only-a').textContent()).resolves.not.toContain('create_task_1');
    // Whether B is better than A: the page draws what GET /v1/compare answers.
    const paired = await api.compare(runA, runB);
    expect(paired.shared_tasks).toBe(2);
    await expect(field('p-value').textContent()).resolves.toBe(paired.p_value === null ? 'n/a' : paired.p_value.toFixed(3));
    await expect(field('resolved').textContent()).resolves.toBe(paired.resolved ? 'yes' : 'no');
    const drawn = await page.locator('svg[data-chart="difference-ci"]').evaluate((svg) => {
      const bar = svg.querySelector('line.ci')!;
      const dot = svg.querySelector('circle.difference')!;
      return { x1: Number(bar.getAttribute('x1')), x2: Number(bar.getAttribute('x2')), cx: Number(dot.getAttribute('cx')), low: Number(bar.getAttribute('data-low')), high: Number(bar.getAttribute('data-high')) };
    });
    expect([drawn.low, drawn.high]).toEqual([paired.ci_low, paired.ci_high]);
    expect(drawn.x1).toBeLessThanOrEqual(drawn.cx);
    expect(drawn.cx).toBeLessThanOrEqual(drawn.x2);
    await page.screenshot({ path: path.join(ARTIFACTS_DIR, 'compare-different-tasks.png'), fullPage: true });
  });

  it('a run whose every simulation failed says so, with the provider’s reason, and its trajectory shows the error, not a grade', async () => {
    await page.goto(`${worker.url}/runs/${refusedRun}`);
    await expect(page.locator('#infra-notice').textContent()).resolves.toContain('Every simulation (1) ended in an infrastructure error');
    await expect(page.locator('#infra-errors li').count()).resolves.toBe(1);
    await expect(page.locator('#infra-errors li').first().textContent()).resolves.toContain('Incorrect API key provided');
    await page.locator('#infra-errors summary').first().click();
    await page.locator('#infra-errors a').first().click();
    await page.waitForURL(/\/simulations\//);
    await expect(page.locator('#infra-error').textContent()).resolves.toContain('Incorrect API key provided');
    await expect(page.locator('#db-diff').count()).resolves.toBe(0);
    await expect(page.locator('[data-field="reward"]').count()).resolves.toBe(0);
  });

  it('tasks are in natural order, and tool results are indented and can be folded', async () => {
    await page.goto(`${worker.url}/runs/${runA}`);
    await expect(taskIdsShown()).resolves.toEqual(['create_task_1', 'impossible_task_1', 'update_task_1']);
    await page.locator('#tasks tr[data-task="create_task_1"] td a').first().click();
    await page.waitForURL(/\/simulations\//);
    const result = page.locator('li[data-role="tool"] details.result').first();
    // get_users answers a JSON list of users: shown one field a line, two spaces deep.
    await expect(result.locator('pre').textContent()).resolves.toMatch(/^\[\n {2}\{\n {4}"/);
    await result.locator('summary').click();
    await expect(result.evaluate((d) => (d as unknown as { open: boolean }).open)).resolves.toBe(false);
  });

  it('the run page searches its tasks and keeps only the failures on demand', async () => {
    await page.goto(`${worker.url}/runs/${runB}`);
    await page.getByLabel('Search', { exact: true }).fill('UPDATE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/q=UPDATE/);
    await expect(taskIdsShown()).resolves.toEqual(['update_task_1', 'update_task_with_user_tools']);
    await expect(field('tasks-shown').textContent()).resolves.toBe('2 of 3 tasks');

    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Failures only').check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/failures=1/);
    // The creating agent passes create_task_1 only.
    const failed = [...new Set((await api.results(runB)).simulations.filter((s) => (s.reward_info?.reward.value ?? 0) < 1).map((s) => s.task_id))];
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(3);
    await expect(taskIdsShown()).resolves.toEqual(failed.sort());
  });

  it('a schedule is created, paused, resumed and deleted from the page; a form without the session token changes nothing', async () => {
    await page.goto(`${worker.url}/schedules`);
    await page.getByLabel('Name').fill('nightly from the page');
    await page.getByLabel('Every (minutes)').fill('720');
    await page.getByLabel('Task ids (space-separated)').fill('create_task_1');
    await page.getByLabel('Agent model').fill('fake-agent');
    await page.getByLabel('User model').fill('fake-user');
    await page.getByRole('checkbox', { name: /Enabled/ }).uncheck();
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.waitForURL(`${worker.url}/schedules`);
    const created = (await api.listSchedules()).find((s) => s.name === 'nightly from the page');
    expect(created).toMatchObject({ interval_minutes: 720, enabled: false, run: { domain: 'mock', llm_agent: 'fake-agent', task_ids: ['create_task_1'] } });
    const row = page.locator(`tr[data-schedule="${created!.id}"]`);
    await expect(row.locator('[data-field="state"]').textContent()).resolves.toBe('paused');

    await row.getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(`${worker.url}/schedules`);
    await expect(row.locator('[data-field="state"]').textContent()).resolves.toBe('enabled');
    await row.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(`${worker.url}/schedules`);
    expect((await api.listSchedules()).find((s) => s.id === created!.id)?.enabled).toBe(false);

    // The session's cookie without the page's token: refused, the schedule is still there.
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const forged = await fetch(`${worker.url}/schedules/${created!.id}/delete`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: worker.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'csrf=forged',
    });
    expect(forged.status).toBe(403);
    expect((await api.listSchedules()).some((s) => s.id === created!.id)).toBe(true);

    await row.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${worker.url}/schedules`);
    expect((await api.listSchedules()).some((s) => s.id === created!.id)).toBe(false);
    await expect(page.locator(`tr[data-schedule="${created!.id}"]`).count()).resolves.toBe(0);
  });

  it('an invalid schedule is refused with the field named, and nothing is created', async () => {
    const before = (await api.listSchedules()).length;
    await page.goto(`${worker.url}/schedules`);
    await page.getByLabel('Name').fill('too often');
    await page.getByLabel('Every (minutes)').fill('0');
    await page.getByLabel('Agent model').fill('fake-agent');
    await page.getByLabel('User model').fill('fake-user');
    // The browser's own check of min="1" is not what is tested: the server's is.
    await page.locator('form.launch').evaluate((f) => f.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('interval_minutes');
    expect((await api.listSchedules()).length).toBe(before);
  });

  it('every page stands at 430 px without horizontal overflow', async () => {
    const phone = await browser.newContext({ viewport: PHONE, isMobile: true, storageState: await context.storageState() });
    const small = await phone.newPage();
    const [simA, simRefused] = await Promise.all([runA, refusedRun].map(async (id) => (await api.results(id)).simulations[0]!.id));
    const routes: [string, string][] = [
      ['runs', '/'], ['run', `/runs/${runA}`], ['run-refused', `/runs/${refusedRun}`], ['run-filtered', `/runs/${runA}?q=task&failures=1`],
      ['trajectory', `/simulations/${simA}?run=${runA}`], ['trajectory-refused', `/simulations/${simRefused}?run=${refusedRun}`],
      ['compare-pick', '/compare'], ['compare', `/compare?a=${runA}&b=${runB}`], ['schedules', '/schedules'], ['login', '/login'], ['docs', '/docs'],
    ];
    const overflowing: string[] = [];
    for (const [name, route] of routes) {
      await small.goto(`${worker.url}${route}`);
      if (name === 'docs') await small.locator('.swagger-ui .info').waitFor();
      const [scroll, client] = (await small.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]')) as [number, number];
      if (scroll > client) overflowing.push(`${route}: ${scroll} > ${client}`);
      await small.screenshot({ path: path.join(ARTIFACTS_DIR, `phone-${name}.png`), fullPage: false });
    }
    expect(overflowing).toEqual([]);
    await phone.close();
  });

  it('/docs renders the API reference with no request leaving 127.0.0.1', async () => {
    const offline = await browser.newContext();
    const requests: string[] = [];
    offline.on('request', (r) => requests.push(r.url()));
    // Anything not this worker is refused, as with no network.
    await offline.route((url) => url.origin !== worker.url, (route) => route.abort('internetdisconnected'));
    const docs = await offline.newPage();
    await docs.goto(`${worker.url}/docs`);
    await expect(docs.locator('.swagger-ui .info .title').textContent({ timeout: 30_000 })).resolves.toContain('tau2-edge');
    await expect(docs.locator('.opblock-summary-path').filter({ hasText: '/v1/runs' }).count()).resolves.toBeGreaterThan(0);
    expect(requests.filter((u) => !u.startsWith(`${worker.url}/`) && !u.startsWith('data:'))).toEqual([]);
    await docs.screenshot({ path: path.join(ARTIFACTS_DIR, 'docs-offline.png'), fullPage: false });
    await offline.close();
  });
});
