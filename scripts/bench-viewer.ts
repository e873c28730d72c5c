// The web viewer with a 1,000-simulation run: p50/p95 server time of each page (full body), and p95 load in
// headless Chromium (navigation to the load event) when Debian's chromium is installed. Twice: on a local worker
// (workerd, D1) holding a 1,008-simulation mock run played against the fake provider, and in the offline
// viewer (`view FILE --web`) over the airline re-grade fixture's 21 simulations repeated as 48 trials.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { saveResults } from '../src/cli/results-file.ts';
import { startWebView } from '../src/cli/view/web.ts';
import { parsePyJson } from '../src/core/py/index.ts';
import { ResultsSchema } from '../src/core/schemas/simulation.ts';
import type { Results } from '../src/core/schemas/simulation.ts';
import { browserMissing, launchChromium } from '../test/support/browser.ts';
import { mockConversation } from '../test/support/fake-openai.ts';
import { mockRun, runToEnd, scorableMockTasks, startHarness } from '../test/support/load-harness.ts';
import { quantile } from './bench-quantile.ts';

const TRIALS = 48;
const LOADS = 30;

const bigRun = async (): Promise<Results> => {
  const fixture = ResultsSchema.parse(parsePyJson(await readFile(new URL('../test/fixtures/airline-results-regrade.json', import.meta.url), 'utf8')));
  const simulations = Array.from({ length: TRIALS }, (_, trial) => fixture.simulations.map((s) => ({ ...s, id: `${s.id}-t${trial}`, trial }))).flat();
  return { ...fixture, info: { ...fixture.info, num_trials: TRIALS }, simulations };
};

/** Server time and Chromium load of each page, as report lines. */
const measure = async (label: string, base: string, pages: Readonly<Record<string, string>>, simulations: number): Promise<string[]> => {
  const server: string[] = [];
  for (const [name, route] of Object.entries(pages)) {
    const samples: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const t = performance.now();
      await (await fetch(`${base}${route}`)).text();
      samples.push(performance.now() - t);
    }
    server.push(`${name} p50 ${quantile(samples, 0.5).toFixed(0)} / p95 ${quantile(samples, 0.95).toFixed(0)} ms`);
  }
  const lines = [`viewer (${label}), ${simulations}-simulation run, server time: ${server.join(' | ')}`];
  const missing = browserMissing();
  if (missing) return [...lines, `viewer (${label}) in Chromium: skipped, ${missing}`];
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const loads: string[] = [];
    for (const [name, route] of Object.entries(pages)) {
      const samples: number[] = [];
      for (let i = 0; i < LOADS / 3; i++) {
        const t = performance.now();
        await page.goto(`${base}${route}`, { waitUntil: 'load' });
        samples.push(performance.now() - t);
      }
      loads.push(`${name} p95 ${quantile(samples, 0.95).toFixed(0)} ms`);
    }
    return [...lines, `viewer (${label}) in Chromium, page load to the load event: ${loads.join(' | ')}`];
  } finally {
    await browser.close();
  }
};

/** A 1,008-simulation mock run on a local worker: 9 scorable tasks × 112 trials. */
const onLocalWorker = async (): Promise<string[]> => {
  const harness = await startHarness(mockConversation(), { workerVars: { LIMIT_MAX_TRIALS: '200' } });
  try {
    const run = await runToEnd(harness, mockRun({ task_ids: await scorableMockTasks(), num_trials: 112, max_concurrency: 32 }));
    const other = await runToEnd(harness, mockRun({ task_ids: await scorableMockTasks(), num_trials: 1 }));
    const sim = run.results.simulations[run.results.simulations.length - 1]!.id;
    const pages = { runs: '/', run: `/runs/${run.runId}`, trajectory: `/simulations/${sim}`, compare: `/compare?a=${run.runId}&b=${other.runId}` };
    return await measure('local worker', harness.worker().url, pages, run.results.simulations.length);
  } finally {
    await harness.close();
  }
};

const offline = async (): Promise<string[]> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-bench-viewer-'));
  const file = path.join(dir, 'big.json');
  const results = await bigRun();
  await saveResults(file, results);
  const web = await startWebView([file, file]);
  try {
    const sim = results.simulations[results.simulations.length - 1]!.id;
    const pages = { runs: '/', run: '/runs/big.json', trajectory: `/simulations/${sim}`, compare: '/compare?a=big.json&b=big.json-2' };
    return await measure('view --web', web.url, pages, results.simulations.length);
  } finally {
    await web.close();
    await rm(dir, { recursive: true, force: true });
  }
};

export const benchViewer = async (): Promise<string[]> => [...(await onLocalWorker()), ...(await offline())];
