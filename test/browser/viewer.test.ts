// The web viewer in real Chromium against a local worker (workerd, D1, Durable Objects) and the
// scripted provider: sign-in, the runs page and its filters (the retrieval configuration's among them), a run page whose progress advances live, a
// trajectory, the comparison of two runs, launching and cancelling from the pages. Screenshots are written to
// test-artifacts/screenshots.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startLocalWorker } from '../../src/cli/local/worker.ts';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import { apiClient } from '../../src/client/index.ts';
import type { ApiClient } from '../../src/client/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { mockConversation, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeHandler, FakeOpenAI } from '../support/fake-openai.ts';
import { creatingAgent, stopAll, waitFinished } from '../support/viewer-runs.ts';
import { ARTIFACTS_DIR, accessibilityViolations, browserMissing, launchChromium } from '../support/browser.ts';

const OPERATOR_KEY = 'browser-test-operator-key';
const SLOW_AGENT = 'slow-agent';
const CREATING_AGENT = 'creating-agent';
const missing = browserMissing();
if (missing) console.log(`browser tests skipped: ${missing}`);

let fake: FakeOpenAI;
let worker: LocalWorker;
let api: ApiClient;
let browser: Browser;
let page: Page;
let dir: string;
let completedId: string;
let otherCompletedId: string;
let runningId: string;
/** banking_knowledge runs of two retrieval configurations. */
let noKnowledgeId: string;
let bm25Id: string;

const runConfig = (agentModel: string, numTrials: number, taskIds: string[]) =>
  RunConfigSchema.parse({ domain: 'mock', llm_agent: agentModel, llm_user: 'fake-user', llm_judge: 'fake-user', num_trials: numTrials, task_ids: taskIds, max_concurrency: 1 });

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
const field = (name: string) => page.locator(`[data-field="${name}"]`).first();

describe.skipIf(missing !== null)('web viewer in Chromium', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-browser-'));
    await mkdir(ARTIFACTS_DIR, { recursive: true });
    fake = await startFakeOpenAI();
    const instant = mockConversation();
    const slow = mockConversation({ delayMs: 700 });
    const creating = creatingAgent(instant);
    // The slow agent's model keeps its run (20 episodes, one at a time) running while the pages are looked at.
    const byModel: Record<string, FakeHandler> = { [SLOW_AGENT]: slow, [CREATING_AGENT]: creating };
    fake.setHandler((request) => (byModel[(request.body as { model?: string }).model ?? ''] ?? instant)(request));
    worker = await startLocalWorker({ persistTo: path.join(dir, 'state'), logFile: path.join(dir, 'worker.log'), env: { OPENAI_BASE_URL: fake.baseURL, API_KEY: OPERATOR_KEY } });
    api = apiClient(worker.url, OPERATOR_KEY);
    completedId = (await api.createRun(runConfig('fake-agent', 2, ['create_task_1', 'update_task_1']))).run_id;
    otherCompletedId = (await api.createRun(runConfig(CREATING_AGENT, 1, ['create_task_1', 'update_task_1']))).run_id;
    const banking = (retrievalConfig: string) =>
      RunConfigSchema.parse({ ...runConfig('fake-agent', 1, ['task_004']), domain: 'banking_knowledge', retrieval_config: retrievalConfig });
    noKnowledgeId = (await api.createRun(banking('no_knowledge'))).run_id;
    bm25Id = (await api.createRun(banking('bm25'))).run_id;
    await Promise.all([completedId, otherCompletedId, noKnowledgeId, bm25Id].map((id) => waitFinished(api, id, 90_000)));
    runningId = (await api.createRun(runConfig(SLOW_AGENT, 20, ['create_task_1']))).run_id;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 180_000);

  afterAll(() => stopAll({ browser, worker, fake, dir }));

  it('signs in with the API key and lists the runs; the status filter keeps the running one only', async () => {
    await page.goto(`${worker.url}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('API key').fill(OPERATOR_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${worker.url}/`);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'tau2_session')?.httpOnly).toBe(true);
    for (const id of [completedId, otherCompletedId, runningId]) await expect(page.locator(`tr[data-run="${id}"]`).count()).resolves.toBe(1);
    expect(await page.content()).not.toContain(OPERATOR_KEY);
    await shot('runs');

    await page.getByLabel('Status').selectOption('running');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=running/);
    const statuses = await page.locator('tbody tr[data-run]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['running']));
    await expect(page.locator(`tr[data-run="${completedId}"]`).count()).resolves.toBe(0);
  });

  it('the retrieval configuration filter keeps the runs of that configuration only, each showing it', async () => {
    await page.goto(`${worker.url}/`);
    await page.getByLabel('Retrieval config').selectOption('bm25');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/retrieval_config=bm25/);
    const rows = await page.locator('tbody tr[data-run]').evaluateAll((trs) => trs.map((r) => [r.getAttribute('data-run'), r.children[3]?.textContent]));
    expect(rows).toEqual([[bm25Id, 'bm25']]);
    await page.locator(`tr[data-run="${bm25Id}"] a`).first().click();
    await page.waitForURL(`${worker.url}/runs/${bm25Id}`);
    await expect(field('retrieval-config').textContent()).resolves.toBe('bm25');
    await page.getByRole('link', { name: 'compare with no_knowledge' }).click();
    await page.waitForURL(/\/compare\?a=/);
    await expect(Promise.all([field('config-a').textContent(), field('config-b').textContent()])).resolves.toEqual(['bm25', 'no_knowledge']);
  });

  it('a running run page advances live from the event stream, without a reload', async () => {
    await page.goto(`${worker.url}/runs/${runningId}`);
    const before = await field('done').textContent();
    // Browser-side expressions are strings: this project's TypeScript has no DOM types.
    await page.evaluate('window.marker = 42');
    await expect.poll(() => field('done').textContent(), { timeout: 30_000, interval: 250 }).not.toBe(before);
    // The same document: the numbers changed in place.
    expect(await page.evaluate('window.marker')).toBe(42);
    expect(await field('status').textContent()).toBe('running');
    await shot('run-live');
  });

  it('typing in the task search of a running run is not swapped away by the live update', async () => {
    const id = (await api.createRun(runConfig(SLOW_AGENT, 6, ['create_task_1']))).run_id;
    await page.goto(`${worker.url}/runs/${id}`);
    const search = page.getByLabel('Search', { exact: true });
    await search.fill('create');
    const shown = (await field('done').textContent())!;
    const before = Number(shown.split('/')[0]);
    await expect.poll(async () => (await api.run(id)).counts.done, { timeout: 30_000, interval: 250 }).toBeGreaterThan(before);
    // A swap follows a finished simulation within a second; none happens while the field has the focus.
    await page.waitForTimeout(2000);
    await expect(search.inputValue()).resolves.toBe('create');
    await expect(field('done').textContent()).resolves.toBe(shown);
    await search.blur();
    await expect.poll(() => field('done').textContent(), { timeout: 30_000, interval: 250 }).not.toBe(shown);
    await api.cancel(id);
  });

  it('a completed run page shows pass^k with its chart, the components, the tasks and the cost', async () => {
    await page.goto(`${worker.url}/runs/${completedId}`);
    const run = await api.run(completedId);
    expect(await field('pass-hat-1').textContent()).toBe(run.metrics['pass_hat_1']!.toFixed(3));
    expect(await field('pass-hat-2').textContent()).toBe(run.metrics['pass_hat_2']!.toFixed(3));
    await expect(page.locator('svg[data-chart="pass-hat-k"] circle').count()).resolves.toBe(2);
    await expect(page.locator('#tasks tbody tr').count()).resolves.toBe(2);
    await expect(page.locator('#terminations').textContent()).resolves.toContain('user_stop');
    // Tokens and cost by role: the scripted models have no price, so they are named, never $0.
    await expect(page.locator('#usage tr[data-role="agent"]').textContent()).resolves.toContain('unpriced (fake-agent)');
    await expect(page.locator('#usage tr[data-role="judge"]').textContent()).resolves.toContain('none');
    await expect(page.locator('#usage tbody tr').count()).resolves.toBe(6);
    await shot('run');
  });

  it('a trajectory shows the conversation with the tool call, its result and the reward explained', async () => {
    await page.goto(`${worker.url}/runs/${completedId}`);
    await page.locator('#tasks tbody tr').first().locator('td a').first().click();
    await page.waitForURL(/\/simulations\//);
    await expect(page.locator('li[data-role="assistant"]').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('li[data-role="user"]').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('.tool-call code').first().textContent()).resolves.toBe('get_users');
    await expect(page.locator('li[data-role="tool"]').first().textContent()).resolves.toContain('get_users');
    await expect(field('reward').textContent()).resolves.toMatch(/^[01]\.00$/);
    // The scripted agent never creates the task: the gold DB's new task is what differs.
    await expect(page.locator('#db-diff').textContent()).resolves.toContain('Important Meeting');
    await expect(page.getByRole('link', { name: '← run' }).getAttribute('href')).resolves.toBe(`/runs/${completedId}`);
    await shot('trajectory');
  });

  it('compare shows both pass^k curves and the per-task deltas of the two runs', async () => {
    await page.goto(`${worker.url}/compare`);
    await page.getByLabel('Run A').selectOption(completedId);
    await page.getByLabel('Run B').selectOption(otherCompletedId);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/\/compare\?a=/);
    await expect(page.locator('svg[data-chart="pass-hat-k"] g.series').count()).resolves.toBe(2);
    const [a, b] = await Promise.all([api.results(completedId), api.results(otherCompletedId)]);
    const avg = (results: typeof a, task: string) => {
      const rewards = results.simulations.filter((s) => s.task_id === task).map((s) => s.reward_info!.reward.value);
      return rewards.reduce((x, y) => x + y, 0) / rewards.length;
    };
    // create_task_1 passes in B only: a real difference to show.
    expect(avg(b, 'create_task_1') - avg(a, 'create_task_1')).toBe(1);
    for (const task of ['create_task_1', 'update_task_1']) {
      const delta = avg(b, task) - avg(a, task);
      const shown = await page.locator(`#deltas tr[data-task="${task}"] [data-field="delta"]`).textContent();
      expect(shown).toBe(`${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(delta).toFixed(3)}`);
    }
    await shot('compare');
  });

  it('the launch form starts a run, and its page cancels it', async () => {
    await page.goto(`${worker.url}/`);
    await page.getByLabel('Task ids (space-separated)').fill('create_task_1');
    await page.getByLabel('Trials').fill('6');
    await page.getByLabel('Agent model').fill(SLOW_AGENT);
    await page.getByLabel('User model').fill('fake-user');
    await page.getByRole('button', { name: 'Launch' }).click();
    await page.waitForURL(/\/runs\/[^/]+$/);
    const launchedId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const launched = await api.run(launchedId);
    expect(launched.config.num_trials).toBe(6);
    expect(launched.config.llm_agent).toBe(SLOW_AGENT);
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.waitForURL(`${worker.url}/runs/${launchedId}`);
    expect((await api.run(launchedId)).status).toBe('cancelled');
    await expect(field('status').textContent()).resolves.toBe('cancelled');
  });

  it('an invalid launch is refused with the field named, and nothing is created', async () => {
    const before = (await api.listRuns(200)).length;
    await page.goto(`${worker.url}/`);
    await page.getByLabel('Domain').last().fill('no-such-domain');
    await page.getByLabel('Agent model').fill('fake-agent');
    await page.getByLabel('User model').fill('fake-user');
    await page.getByRole('button', { name: 'Launch' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('domain');
    expect((await api.listRuns(200)).length).toBe(before);
  });

  it('the schedules page lists a schedule with its run and next time', async () => {
    const response = await fetch(`${worker.url}/v1/schedules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'nightly mock', interval_minutes: 1440, enabled: false, run: { domain: 'mock', llm_agent: 'fake-agent', llm_user: 'fake-user' } }),
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    await page.goto(`${worker.url}/schedules`);
    const row = page.locator(`tr[data-schedule="${id}"]`);
    await expect(row.textContent()).resolves.toContain('nightly mock');
    await expect(row.textContent()).resolves.toContain('paused');
    await expect(row.textContent()).resolves.toContain('every 1440 min');
  });

  it('every page passes the WCAG 2.1 A/AA audit (axe-core): labels, names, contrast', async () => {
    const audit = await browser.newContext({ bypassCSP: true, storageState: await page.context().storageState() });
    const auditPage = await audit.newPage();
    const sim = (await api.results(completedId)).simulations[0]!.id;
    for (const route of ['/', `/runs/${completedId}`, `/runs/${runningId}`, `/simulations/${sim}`, `/compare?a=${completedId}&b=${otherCompletedId}`, `/compare?a=${noKnowledgeId}&b=${bm25Id}`, '/schedules', '/login']) {
      await auditPage.goto(`${worker.url}${route}`);
      const violations = await accessibilityViolations(auditPage);
      expect(violations.map((v) => `${route}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
    await audit.close();
  });

  it('is usable by keyboard: the status filter is reached, set and submitted with Tab, arrows and Enter', async () => {
    await page.goto(`${worker.url}/`);
    const focusedName = () => page.evaluate('document.activeElement && (document.activeElement.getAttribute("name") || document.activeElement.textContent)');
    // Tab through the navigation to the status filter, choose with the arrow keys, Tab to the button, Enter.
    const tabTo = async (name: string) => {
      for (let i = 0; i < 20 && (await focusedName()) !== name; i++) await page.keyboard.press('Tab');
      expect(await focusedName()).toBe(name);
    };
    await tabTo('status');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await tabTo('Filter');
    await page.keyboard.press('Enter');
    await page.waitForURL(/status=completed/);
    // Focus is visible: the outline the stylesheet gives focused controls.
    await page.keyboard.press('Tab');
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).toBe('solid');
  });
});
