// `npm test [-- TIER…] [vitest arguments]`: runs the test tiers named (the vitest projects: unit, worker, e2e, ops),
// every tier when none is, ending with the line `N passed, N failed` (test/plain-summary-reporter.ts). Other
// arguments (a file or folder filter, -t NAME, --reporter=…) reach vitest as they are. The tiers run in lanes
// side by side (test-lanes.ts); each lane's output goes on as it comes, and one summary line counts them all.
// Example: npm test -- unit; npm test -- e2e test/cli/view.test.ts
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { buildsLocalWorker, summaryCounts, summaryLine, testPlan, tierProjects } from './test-lanes.ts';
import buildLocalWorker from '../test/support/local-worker.setup.ts';
import type { TestCounts } from './test-lanes.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const vitest = path.join(repoRoot, 'node_modules', '.bin', 'vitest');
const reporters = ['--reporter=default', `--reporter=${path.join(repoRoot, 'test', 'plain-summary-reporter.ts')}`];
const { lanes, vitestArgs } = testPlan(process.argv.slice(2));
const vitestRun = (lane: readonly string[]): string[] => ['run', ...reporters, ...lane.flatMap(tierProjects).flatMap((project) => ['--project', project]), ...vitestArgs];

/** A lane that ends without a summary line (it crashed) counts as one failure. */
const CRASHED: TestCounts = { passed: 0, failed: 1, skipped: 0 };

/** Runs one lane, its output passed on but for its summary (its last line that reads as one), which it answers. */
const runLane = (lane: readonly string[]): Promise<{ code: number; counts: TestCounts }> =>
  new Promise((resolve) => {
    const child = spawn(vitest, vitestRun(lane), { cwd: repoRoot, stdio: ['inherit', 'pipe', 'inherit'] });
    let held: string | null = null;
    createInterface({ input: child.stdout }).on('line', (line) => {
      // A line like a summary that more output follows was not the summary.
      if (held !== null && line.trim() !== '') {
        console.log(held);
        held = null;
      }
      if (summaryCounts(line) === null) console.log(line);
      else held = line;
    });
    child.on('close', (code) => resolve({ code: code ?? 1, counts: (held === null ? null : summaryCounts(held)) ?? CRASHED }));
  });

if (lanes.length === 1) {
  process.exit(spawnSync(vitest, vitestRun(lanes[0]!), { cwd: repoRoot, stdio: 'inherit' }).status ?? 1);
}
// Lanes that start local workers would each build its bundle and migrated database, at once, where neither is
// cached (a fresh checkout): built here once before those lanes start, both are cached for their global setups.
// A failed build is left to them to report.
const built = lanes.filter(buildsLocalWorker).length > 1 ? buildLocalWorker().catch(() => undefined) : null;
const results = await Promise.all(
  lanes.map(async (lane) => {
    if (built !== null && buildsLocalWorker(lane)) await built;
    return runLane(lane);
  }),
);
const sum = (key: keyof TestCounts): number => results.reduce((total, { counts }) => total + counts[key], 0);
console.log(summaryLine({ passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped') }));
process.exit(results.find(({ code }) => code !== 0)?.code ?? 0);
