// The viewer's tables as a reader sees them, in real Chromium at a phone's 430 px and a laptop's 1280 px, with
// the names real runs carry (anthropic/claude-sonnet-4-5 as agent, openai/responses/gpt-5-mini as user, served by
// the scripted native providers): no word in a table cell is broken across lines, a table wider than the page
// scrolls in its own box, and the page itself never scrolls sideways.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLocalWorker } from '../../src/cli/local/worker.ts';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import { apiClient } from '../../src/client/index.ts';
import type { ApiClient } from '../../src/client/index.ts';
import { RunConfigSchema } from '../../src/core/schemas/run-config.ts';
import { startFakeNative } from '../support/fake-native.ts';
import type { FakeNative, NativeReply, NativeRequest } from '../support/fake-native.ts';
import { stopAll, waitFinished } from '../support/viewer-runs.ts';
import { browserMissing, launchChromium } from '../support/browser.ts';

const OPERATOR_KEY = 'browser-tables-operator-key';
const AGENT = 'anthropic/claude-sonnet-4-5';
const USER = 'openai/responses/gpt-5-mini';
const WIDTHS = [430, 1280] as const;
const missing = browserMissing();
if (missing) console.log(`browser tests skipped: ${missing}`);

let native: FakeNative;
let worker: LocalWorker;
let api: ApiClient;
let browser: Browser;
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;
let dir: string;
let runA: string;
let runB: string;
let simulationId: string;
/** Runs whose agent the caller plays: an agent-driven episode's and an OpenEnv session's. */
let agentDriven: string;
let openEnv: string;

/** The user asks for a task, the agent answers, the user stops: a graded conversation with priced calls. */
const conversation = (request: NativeRequest): NativeReply => {
  if (request.provider === 'anthropic') return { kind: 'text', text: 'I have noted your request for the weekly review.' };
  return request.transcript.some((t) => t.includes('weekly review'))
    ? { kind: 'text', text: 'Thanks. ###STOP###' }
    : { kind: 'text', text: 'Please create a task called Weekly Review for user_1.' };
};

const runConfig = (numTrials: number) =>
  RunConfigSchema.parse({ domain: 'mock', llm_agent: AGENT, llm_user: USER, llm_judge: USER, num_trials: numTrials, task_ids: ['create_task_1', 'update_task_1'], max_concurrency: 2 });

/**
 * Every word (a run of non-space characters) of a table cell that the page breaks over more than one line, as
 * `table: word`; run in the page.
 */
const BROKEN_WORDS = `(() => {
  const broken = [];
  for (const cell of document.querySelectorAll('table td, table th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push((cell.closest('table').id || 'table') + ': ' + word[0]);
      }
    }
  }
  return broken;
})()`;

/** How far the page and each table's box scroll sideways. */
const SCROLLING = `(() => ({
  page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  boxes: Object.fromEntries([...document.querySelectorAll('.table-wrap')].map((box, i) => [box.querySelector('table').id || 'table' + i, box.scrollWidth - box.clientWidth])),
}))()`;

describe.skipIf(missing !== null)('viewer tables in Chromium', () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-browser-tables-'));
    native = await startFakeNative();
    native.setHandler(conversation);
    worker = await startLocalWorker({
      persistTo: path.join(dir, 'state'),
      logFile: path.join(dir, 'worker.log'),
      env: { ANTHROPIC_BASE_URL: native.anthropicURL, ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_BASE_URL: native.responsesURL, OPENAI_API_KEY: 'sk-test', API_KEY: OPERATOR_KEY },
      readyTimeoutMs: 180_000,
    });
    api = apiClient(worker.url, OPERATOR_KEY);
    runA = (await api.createRun(runConfig(2))).run_id;
    runB = (await api.createRun(runConfig(1))).run_id;
    await Promise.all([runA, runB].map((id) => waitFinished(api, id, 120_000)));
    simulationId = (await api.results(runA, { messages: false })).simulations[0]!.id;
    agentDriven = (await api.createEpisode({ domain: 'mock', task_id: 'create_task_1', llm_user: USER })).run_id;
    const reset = await fetch(`${worker.url}/openenv/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'mock', task_id: 'update_task_1', llm_user: USER }),
    });
    openEnv = (await api.episode(((await reset.json()) as { observation: { episode_id: string } }).observation.episode_id)).run_id;
    await api.createSchedule({ name: 'nightly-regression-claude-sonnet-4-5', interval_minutes: 1440, enabled: false, run: runConfig(1) });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${worker.url}/login`);
    await page.getByLabel('API key').fill(OPERATOR_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${worker.url}/`);
    signedIn = await context.storageState();
    await context.close();
  }, 300_000);

  afterAll(() => stopAll({ browser, worker, dir }).then(() => native?.close()));

  /** A page at `width`, tall enough that every row is laid out (rows off screen skip their rendering). */
  const pageAt = async (width: number): Promise<Page> =>
    (await browser.newContext({ viewport: { width, height: 4000 }, isMobile: width < 600, storageState: signedIn })).newPage();

  it('the runs were priced and graded under their real names', async () => {
    const run = await api.run(runA);
    expect([run.config.llm_agent, run.config.llm_user, run.status]).toEqual([AGENT, USER, 'completed']);
    expect(run.metrics.avg_agent_cost).toBeGreaterThan(0);
    expect(native.requests.some((r) => r.provider === 'anthropic') && native.requests.some((r) => r.provider === 'responses')).toBe(true);
  });

  for (const width of WIDTHS) {
    it(`at ${width} px no word in a table cell is broken over two lines, and the page never scrolls sideways`, async () => {
      const page = await pageAt(width);
      for (const target of ['/', `/runs/${runA}`, `/simulations/${simulationId}?run=${runA}`, `/compare?a=${runA}&b=${runB}`, '/schedules']) {
        await page.goto(`${worker.url}${target}`);
        expect(await page.locator('table').count(), `${target} has tables`).toBeGreaterThan(0);
        expect(await page.evaluate(BROKEN_WORDS), `${target} at ${width} px`).toEqual([]);
        const scrolling = (await page.evaluate(SCROLLING)) as { page: number; boxes: Record<string, number> };
        expect(scrolling.page, `${target} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      }
      await page.context().close();
    });
  }

  it('at 430 px the runs table and the tokens table scroll in their own box; at 1280 px the runs table fits', async () => {
    const phone = await pageAt(430);
    await phone.goto(`${worker.url}/`);
    expect(((await phone.evaluate(SCROLLING)) as { boxes: Record<string, number> }).boxes['runs']).toBeGreaterThan(0);
    await phone.goto(`${worker.url}/runs/${runA}`);
    expect(((await phone.evaluate(SCROLLING)) as { boxes: Record<string, number> }).boxes['usage']).toBeGreaterThan(0);
    await phone.context().close();
    const laptop = await pageAt(1280);
    await laptop.goto(`${worker.url}/`);
    expect(((await laptop.evaluate(SCROLLING)) as { boxes: Record<string, number> }).boxes['runs']).toBe(0);
    await laptop.context().close();
  });

  it('agent-driven and OpenEnv runs are listed apart, under their own tab, named by who plays them and never by a model', async () => {
    const page = await pageAt(1280);
    const listed = () => page.locator('#runs tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));
    await page.goto(`${worker.url}/`);
    expect(await page.locator('nav.tabs [aria-current="page"]').textContent()).toBe('Evaluations');
    expect((await listed()).sort()).toEqual([runA, runB].sort());
    await page.locator('nav.tabs a[data-kind="external"]').click();
    await page.waitForURL(/kind=external/);
    expect((await listed()).sort()).toEqual([agentDriven, openEnv].sort());
    for (const id of [agentDriven, openEnv]) {
      const recorded = (await api.run(id)).config.llm_agent;
      const agentCell = await page.locator(`tr[data-run="${id}"] td`).nth(4).textContent();
      expect(agentCell).toBe('external');
      expect(agentCell).not.toContain(recorded);
      expect(await page.locator(`tr[data-run="${id}"] td`).nth(5).textContent()).toBe(USER);
    }
    await page.goto(`${worker.url}/runs/${agentDriven}`);
    const heading = (await page.locator('main > p').first().textContent()) ?? '';
    expect(heading).toContain(`agent external · user ${USER} ·`);
    expect(heading).not.toContain((await api.run(agentDriven)).config.llm_agent);
    await page.goto(`${worker.url}/?kind=external`);
    // Filtering keeps to the tab it was asked from.
    await page.locator('form.filters select[name="domain"]').selectOption('mock');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/domain=mock/);
    expect((await listed()).sort()).toEqual([agentDriven, openEnv].sort());
    await page.context().close();
  });

  it("the compare page's pickers name each run by its id and date", async () => {
    const page = await pageAt(1280);
    await page.goto(`${worker.url}/compare`);
    for (const id of [runA, runB]) {
      const run = await api.run(id);
      const option = (await page.locator(`select[name="a"] option[value="${id}"]`).textContent()) ?? '';
      expect(option.startsWith(`${id.slice(0, 12)} · ${run.created_at.slice(0, 10)} ${run.created_at.slice(11, 16)} UTC · mock · ${AGENT}`)).toBe(true);
    }
    await page.context().close();
  });

  it('averages and pass^k are written to three places on every page, one reward to two', async () => {
    const page = await pageAt(1280);
    const texts = (selector: string) => page.locator(selector).evaluateAll((nodes) => nodes.map((n) => (n.textContent ?? '').trim()));
    await page.goto(`${worker.url}/`);
    const scores = await texts('#runs tbody td:nth-child(8)');
    await page.goto(`${worker.url}/runs/${runA}`);
    scores.push(...(await texts('[data-field="final-avg-reward"], [data-field^="pass-hat-"], #tasks tbody td:nth-child(4)')));
    scores.push(...(await texts('[data-field="ci"]')).map((t) => t.replace(/^± | \(95% CI\)$/g, '')));
    const trialRewards = await texts('#tasks tbody td:nth-child(5) a');
    await page.goto(`${worker.url}/compare?a=${runA}&b=${runB}`);
    scores.push(...(await texts('[data-field="avg-a"], [data-field="avg-b"], #deltas tbody td:nth-child(2), #deltas tbody td:nth-child(3)')));
    await page.goto(`${worker.url}/simulations/${simulationId}?run=${runA}`);
    trialRewards.push(...(await texts('[data-field="reward"]')));
    expect(scores.length).toBeGreaterThan(8);
    for (const score of scores) expect(score).toMatch(/^\d+\.\d{3}$/);
    expect(trialRewards.length).toBeGreaterThan(2);
    for (const reward of trialRewards) expect(reward).toMatch(/^\d\.\d{2}$/);
    await page.context().close();
  });
});
