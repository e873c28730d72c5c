// The local worker's guard: leads the worker's process group and runs its runtime in it, so that the worker
// dies with the command that started it, however that command ends. The runtime starts at once (it loads its
// modules and bundle while the command still prepares); the guard's standard input carries first one line, the
// worker's settings (secrets among them), which it hands to the runtime's standard input, so they are never
// written to disk; then it stays open for as long as the command lives. When it closes (the command exited, or
// was killed with kill -9), the guard stops the group and removes the worker's folder; when the runtime exits,
// it removes the folder and exits too. Usage: node guard.ts WORK_DIR COMMAND [ARGS…]
import { execa } from 'execa';
import { rmSync } from 'node:fs';

const [workDir, command, ...args] = process.argv.slice(2);
if (workDir === undefined || command === undefined) throw new Error('usage: guard.ts WORK_DIR COMMAND [ARGS…]');

const removeWorkDir = (): void => rmSync(workDir, { recursive: true, force: true });
const signalGroup = (signal: NodeJS.Signals): void => {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // the group is gone
  }
};

// Never rejects: the guard's own exit code reports how the runtime ended.
const runtime = execa(command, args, { stdin: 'pipe', stdout: 'inherit', stderr: 'inherit', reject: false });
void (async () => {
  const result = await runtime;
  removeWorkDir();
  process.exit(result.exitCode ?? (result.signal === undefined ? 1 : 128));
})();

// A SIGTERM to the group reaches the runtime too: the guard stays to see it exit (and clean up after it).
process.on('SIGTERM', () => undefined);
let firstLine: string | null = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  if (firstLine === null) return;
  firstLine += chunk;
  const end = firstLine.indexOf('\n');
  if (end < 0) return;
  const settings = firstLine.slice(0, end);
  firstLine = null;
  runtime.stdin!.end(settings);
});
process.stdin.on('close', () => {
  removeWorkDir();
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), 5_000).unref();
});
