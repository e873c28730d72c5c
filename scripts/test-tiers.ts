// `npm test [-- TIER…] [vitest arguments]`: runs the test tiers named (the vitest projects: unit, worker, e2e, ops),
// every tier when none is, ending with the line `N passed, N failed` (test/plain-summary-reporter.ts). Other
// arguments (a file or folder filter, -t NAME, --reporter=…) reach vitest as they are.
// Example: npm test -- unit; npm test -- e2e test/cli/view.test.ts
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');
/** The leading bare words are tiers; the arguments after them reach vitest unchanged. */
const args = process.argv.slice(2);
const tierCount = args.findIndex((arg) => !/^[a-z][a-z0-9-]*$/.test(arg));
const tiers = tierCount === -1 ? args : args.slice(0, tierCount);
const vitestArgs = [...tiers.flatMap((tier) => ['--project', tier]), ...args.slice(tiers.length)];
const vitest = path.join(repoRoot, 'node_modules', '.bin', 'vitest');
const reporters = ['--reporter=default', `--reporter=${path.join(repoRoot, 'test', 'plain-summary-reporter.ts')}`];
const run = spawnSync(vitest, ['run', ...reporters, ...vitestArgs], { cwd: repoRoot, stdio: 'inherit' });
process.exit(run.status ?? 1);
