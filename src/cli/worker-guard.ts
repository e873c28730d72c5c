// The local worker's guard: leads the worker's process group and runs its runtime in it, so that the worker
// dies with the command that started it, however that command ends. When its standard input closes (the CLI
// exited, or was killed with kill -9), it stops the group and removes the worker's private env folder; when
// the runtime exits, it removes the folder and exits too. Usage: node worker-guard.ts ENV_DIR COMMAND [ARGS…]
import { execa } from 'execa';
import { rmSync } from 'node:fs';

const [envDir, command, ...args] = process.argv.slice(2);
if (envDir === undefined || command === undefined) throw new Error('usage: worker-guard.ts ENV_DIR COMMAND [ARGS…]');

const removeEnv = (): void => rmSync(envDir, { recursive: true, force: true });
const signalGroup = (signal: NodeJS.Signals): void => {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // the group is gone
  }
};

// Never rejects: the guard's own exit code reports how the runtime ended.
void execa(command, args, { stdin: 'ignore', stdout: 'inherit', stderr: 'inherit', reject: false }).then((result) => {
  removeEnv();
  process.exit(result.exitCode ?? (result.signal === undefined ? 1 : 128));
});
// A SIGTERM to the group reaches the runtime too: the guard stays to see it exit (and clean up after it).
process.on('SIGTERM', () => undefined);
process.stdin.on('close', () => {
  removeEnv();
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), 5_000).unref();
});
process.stdin.resume();
