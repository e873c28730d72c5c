// The local worker's guard: leads the worker's process group and runs its runtime in it, so that the worker
// dies with the command that started it, however that command ends. The runtime starts at once (it loads its
// modules and bundle while the command still prepares); the guard's standard input carries first one line, the
// worker's settings (secrets among them), which it hands to the runtime's standard input, so they are never
// written to disk; then it stays open for as long as the command lives. When it closes (the command exited, or
// was killed with kill -9), the guard stops the group and removes the worker's folder; when the runtime exits,
// it removes the folder and exits too. It imports node's own modules only: it starts on every local run, ahead
// of the runtime, and it is plain JavaScript (type-checked through JSDoc) so that Node starts it without loading
// its TypeScript stripper, about 50 ms earlier. Usage: node guard.mjs WORK_DIR COMMAND [ARGS…]
// @ts-check
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

const [workDir, command, ...args] = process.argv.slice(2);
if (workDir === undefined || command === undefined) throw new Error('usage: guard.mjs WORK_DIR COMMAND [ARGS…]');

/** @returns {void} */
const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });
/** @param {NodeJS.Signals} signal */
const signalGroup = (signal) => {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // the group is gone
  }
};

// The guard's own exit code reports how the runtime ended.
const runtime = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
/**
 * @param {number | null} code
 * @param {NodeJS.Signals | null} signal
 */
const runtimeEnded = (code, signal) => {
  removeWorkDir();
  process.exit(code ?? (signal === null ? 1 : 128));
};
runtime.on('exit', runtimeEnded);
runtime.on('error', () => runtimeEnded(1, null));
// A runtime that ends before reading its settings closes its pipe: that is no reason for the guard to fail.
runtime.stdin.on('error', () => undefined);

// A SIGTERM to the group reaches the runtime too: the guard stays to see it exit (and clean up after it).
process.on('SIGTERM', () => undefined);
/** @type {string | null} */
let firstLine = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (/** @type {string} */ chunk) => {
  if (firstLine === null) return;
  firstLine += chunk;
  const end = firstLine.indexOf('\n');
  if (end < 0) return;
  const settings = firstLine.slice(0, end);
  firstLine = null;
  runtime.stdin.end(settings);
});
process.stdin.on('close', () => {
  removeWorkDir();
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), 5_000).unref();
});
