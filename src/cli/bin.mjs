// The command line's entry (bin/tau2-edge). A `run` on the default path starts its local Worker's runtime before
// anything else, so that the runtime loads its modules and bundle while this process loads the command's own
// (main.ts, from its bundle: cli-bundle.ts): on two cores the start-up halves. Plain JavaScript, as is all it
// loads on an unchanged checkout (the bundle's entry found by cli-entry.mjs), so that Node loads no TypeScript
// stripper; a changed checkout has cli-bundle.ts build the bundle anew.
// @ts-check
import { startRuntimeEarly } from './local/runtime-group.mjs';
import { latestCliEntry, mainOf } from './cli-entry.mjs';

const argv = process.argv.slice(2);
/** A `run` that will start a local Worker: not on a serving API, not in process, not asking for help. */
const startsLocalWorker = argv[0] === 'run' && !argv.some((arg) => arg === '--in-process' || arg === '-h' || arg === '--help' || arg === '--api' || arg.startsWith('--api='));
if (startsLocalWorker) startRuntimeEarly();
const entry = await latestCliEntry().catch(() => null);
/** @typedef {{ runAsProcess(argv: string[]): Promise<void> }} Main */
const { runAsProcess } = entry !== null ? /** @type {Main} */ (await mainOf(entry)) : await (await import('./cli-bundle.ts')).loadMain();
await runAsProcess(argv);
