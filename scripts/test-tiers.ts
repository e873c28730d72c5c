// `npm test [-- TIER…] [vitest arguments]`: runs the test tiers named (the vitest projects: unit, worker, e2e, ops),
// every tier when none is, ending with the line `N passed, N failed` (test/plain-summary-reporter.ts). Other
// arguments (a file or folder filter, -t NAME, --reporter=…) reach vitest as they are.
// Example: npm test -- unit; npm test -- e2e test/cli/view.test.ts
//
// Tiers run in lanes, one vitest process each, side by side; a lane runs its tiers one after another (their
// sequence.groupOrder). The tiers that keep both cores busy with code of their own (unit, worker) share the
// machine with those that mostly wait on the processes they start (e2e: local workers, the CLI, Python,
// Chromium; ops: the operator scripts), so neither leaves a core idle. With vitest arguments the tiers run in
// one process, as a filter or a reporter's output file concerns them all.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const repoRoot = path.resolve(import.meta.dirname, '..');
const LANES: readonly (readonly string[])[] = [
  ['unit', 'worker'],
  ['e2e', 'ops'],
];
const TIERS = LANES.flat();

/** The leading bare words are tiers; the arguments after them reach vitest unchanged. */
const args = process.argv.slice(2);
const tierCount = args.findIndex((arg) => !/^[a-z][a-z0-9-]*$/.test(arg));
const named = tierCount === -1 ? args : args.slice(0, tierCount);
const vitestArgs = args.slice(named.length);
const tiers = named.length === 0 ? TIERS : named;
const lanes =
  vitestArgs.length > 0 || tiers.some((tier) => !TIERS.includes(tier))
    ? [tiers]
    : LANES.map((lane) => lane.filter((tier) => tiers.includes(tier))).filter((lane) => lane.length > 0);

const vitest = path.join(repoRoot, 'node_modules', '.bin', 'vitest');
const reporters = ['--reporter=default', `--reporter=${path.join(repoRoot, 'test', 'plain-summary-reporter.ts')}`];
const projects = (lane: readonly string[]): string[] => lane.flatMap((tier) => ['--project', tier]);
const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Runs one lane; its output goes on as it comes, but for its summary line (the last line that reads as one), which
 * is counted into `total`. A lane that ends without one counts as a failure.
 */
const runLane = (lane: readonly string[], total: Counts): Promise<number> =>
  new Promise((resolve) => {
    const child = spawn(vitest, ['run', ...reporters, ...projects(lane)], { cwd: repoRoot, stdio: ['inherit', 'pipe', 'inherit'] });
    let held: string | null = null;
    createInterface({ input: child.stdout }).on('line', (line) => {
      // A line like the summary that more output follows was not the summary.
      if (held !== null && line.trim() !== '') {
        console.log(held);
        held = null;
      }
      if (SUMMARY.test(line.trim())) held = line.trim();
      else console.log(line);
    });
    child.on('close', (code) => {
      const counts = held === null ? null : SUMMARY.exec(held);
      total.passed += Number(counts?.[1] ?? 0);
      total.failed += Number(counts?.[2] ?? 1);
      total.skipped += Number(counts?.[3] ?? 0);
      resolve(code ?? 1);
    });
  });

if (lanes.length === 1) {
  const run = spawnSync(vitest, ['run', ...reporters, ...projects(lanes[0]!), ...vitestArgs], { cwd: repoRoot, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
const total: Counts = { passed: 0, failed: 0, skipped: 0 };
const codes = await Promise.all(lanes.map((lane) => runLane(lane, total)));
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped > 0 ? `, ${total.skipped} skipped` : ''}`);
process.exit(codes.find((code) => code !== 0) ?? 0);
