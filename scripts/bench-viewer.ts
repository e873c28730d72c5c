// The web viewer with a 1,000-simulation run: p50/p95 server time of each page (full body), and p95 load in
// headless Chromium (navigation to the load event) when Debian's chromium is installed. The run is the
// airline re-grade fixture's 21 simulations repeated as 48 trials (1,008 simulations), served by the offline
// viewer (`view FILE --web`), which renders the same pages as the Worker.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { saveResults } from '../src/cli/results-file.ts';
import { startWebView } from '../src/cli/web-view.ts';
import { parsePyJson } from '../src/core/py/index.ts';
import { ResultsSchema } from '../src/core/schemas/simulation.ts';
import type { Results } from '../src/core/schemas/simulation.ts';
import { browserMissing, launchChromium } from '../test/support/browser.ts';

const TRIALS = 48;
const LOADS = 30;

const quantile = (samples: readonly number[], q: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

const bigRun = async (): Promise<Results> => {
  const fixture = ResultsSchema.parse(parsePyJson(await readFile(new URL('../test/fixtures/airline-results-regrade.json', import.meta.url), 'utf8')));
  const simulations = Array.from({ length: TRIALS }, (_, trial) => fixture.simulations.map((s) => ({ ...s, id: `${s.id}-t${trial}`, trial }))).flat();
  return { ...fixture, info: { ...fixture.info, num_trials: TRIALS }, simulations };
};

export const benchViewer = async (): Promise<string[]> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-bench-viewer-'));
  const file = path.join(dir, 'big.json');
  const results = await bigRun();
  await saveResults(file, results);
  const web = await startWebView([file, file]);
  const sim = results.simulations[results.simulations.length - 1]!.id;
  const pages = { runs: '/', run: '/runs/big.json', trajectory: `/simulations/${sim}`, compare: '/compare?a=big.json&b=big.json-2' };
  const lines: string[] = [];
  try {
    const server: string[] = [];
    for (const [name, route] of Object.entries(pages)) {
      const samples: number[] = [];
      for (let i = 0; i < LOADS; i++) {
        const t = performance.now();
        await (await fetch(`${web.url}${route}`)).text();
        samples.push(performance.now() - t);
      }
      server.push(`${name} p50 ${quantile(samples, 0.5).toFixed(0)} / p95 ${quantile(samples, 0.95).toFixed(0)} ms`);
    }
    lines.push(`viewer, ${results.simulations.length}-simulation run, server time: ${server.join(' | ')}`);
    const missing = browserMissing();
    if (missing) {
      lines.push(`viewer in Chromium: skipped, ${missing}`);
    } else {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const loads: string[] = [];
        for (const [name, route] of Object.entries(pages)) {
          const samples: number[] = [];
          for (let i = 0; i < LOADS / 3; i++) {
            const t = performance.now();
            await page.goto(`${web.url}${route}`, { waitUntil: 'load' });
            samples.push(performance.now() - t);
          }
          loads.push(`${name} p95 ${quantile(samples, 0.95).toFixed(0)} ms`);
        }
        lines.push(`viewer in Chromium, page load to the load event: ${loads.join(' | ')}`);
      } finally {
        await browser.close();
      }
    }
  } finally {
    await web.close();
    await rm(dir, { recursive: true, force: true });
  }
  return lines;
};
