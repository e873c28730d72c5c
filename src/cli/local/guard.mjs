// The local worker's guard: the worker dies with the command that started it, however that command ends. The
// runtime leads a process group of its own (its workerd in it) and starts at the same moment as this guard, which
// stays outside the group: its standard input is a pipe that stays open for as long as the command lives. When it
// closes (the command exited, or was killed with kill -9), the guard stops the group (SIGTERM, then SIGKILL) and
// removes the worker's folder; when the runtime ends first, it stops what is left of the group (a workerd the
// runtime did not stop) and removes the folder too. It imports node's own modules only, and is plain JavaScript
// (type-checked through JSDoc), so that Node starts it without loading its TypeScript stripper.
// Usage: node guard.mjs WORK_DIR RUNTIME_PID
// @ts-check
import { rmSync } from 'node:fs';

const [workDir, runtimeArg] = process.argv.slice(2);
const runtime = Number(runtimeArg);
if (workDir === undefined || !Number.isInteger(runtime) || runtime <= 0) throw new Error('usage: guard.mjs WORK_DIR RUNTIME_PID');

/** How often the guard looks for the runtime and its group (the runtime is not its child: no exit event). */
const WATCH_MS = 100;
/** How long a stopped group has to exit before it is killed, and how long the guard then waits for it. */
const GRACE_MS = 5_000;
const GRACE_AFTER_KILL_MS = 1_000;

/**
 * Whether a process (pid) or a process group (-pid) has a live member.
 * @param {number} target
 */
const alive = (target) => {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
};
/** @param {NodeJS.Signals} signal */
const signalGroup = (signal) => {
  try {
    process.kill(-runtime, signal);
  } catch {
    // the group is gone
  }
};
/** @returns {never} */
const end = () => {
  rmSync(workDir, { recursive: true, force: true });
  process.exit(0);
};

// The runtime ended (its command stopped it, or it failed): what is left of its group goes, then the folder.
const watch = setInterval(() => {
  if (alive(runtime)) return;
  signalGroup('SIGKILL');
  end();
}, WATCH_MS);

// The command ended: the group is stopped, and the folder goes once the group has exited. Its members are no
// longer the command's children: one killed may stay a zombie until something reaps it, so the guard ends soon
// after the kill whatever it still sees.
process.stdin.on('close', () => {
  clearInterval(watch);
  signalGroup('SIGTERM');
  const killAt = Date.now() + GRACE_MS;
  setInterval(() => {
    if (!alive(-runtime) || Date.now() >= killAt + GRACE_AFTER_KILL_MS) end();
    if (Date.now() >= killAt) signalGroup('SIGKILL');
  }, WATCH_MS);
});
process.stdin.resume();
