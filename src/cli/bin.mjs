// The command line's entry (bin/tau2-edge). A `run` on the default path starts its local Worker's runtime before
// anything else, so that the runtime loads its modules and bundle while this process loads the command's own
// (main.ts, from its bundle: cli-bundle.ts): on two cores the start-up halves. Plain JavaScript, importing only
// JavaScript until then, so that Node starts the runtime before it loads its TypeScript stripper.
// @ts-check
import { startRuntimeEarly } from './local/runtime-group.mjs';

const argv = process.argv.slice(2);
/** A `run` that will start a local Worker: not on a serving API, not in process, not asking for help. */
const startsLocalWorker = argv[0] === 'run' && !argv.some((arg) => arg === '--in-process' || arg === '-h' || arg === '--help' || arg === '--api' || arg.startsWith('--api='));
if (startsLocalWorker) startRuntimeEarly();
const { loadMain } = await import('./cli-bundle.ts');
const { runAsProcess } = await loadMain();
await runAsProcess(argv);
