// The local worker's runtime group: the runtime (runtime.ts) leading a process group of its own, its workerd in
// it, and the guard beside it (guard.mjs). A `run` starts it before anything else (bin.mjs), so this module
// and what it imports are plain JavaScript (type-checked through JSDoc): Node starts the group without loading its
// TypeScript stripper first. A group started early runs the runtime from the command line's latest bundle entry
// (cli-bundle.ts builds `runtime.mjs` beside `main.mjs`), taken before its sources are checked, which costs time;
// the worker takes it only if the command runs from that same entry (cli-entry.mjs), and lets go of it otherwise.
// @ts-check
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../checkout.mjs';
import { RUNTIME_BUNDLE, cliCacheDir, commandEntry } from '../cli-entry.mjs';
import { LATEST } from './latest-entry.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where the local worker keeps its state and log: TAU2_EDGE_STATE_DIR (e.g. a test suite's own), else the checkout's `.wrangler`. */
export const localStateRoot = () => process.env['TAU2_EDGE_STATE_DIR'] || path.join(repoRoot, '.wrangler');

export const defaultLogFile = () => path.join(localStateRoot(), 'tau2-edge-dev.log');

/** The local worker's own folder under the system temporary folder, removed when it stops. */
const WORK_DIR_PREFIX = 'tau2-edge-worker-';
/** The settings file earlier versions wrote there, secrets included, which a killed worker left behind. */
const LEFT_SECRETS_FILE = 'worker-vars.json';
/** A settings file older than this is a leftover: an earlier version's runtime reads its file within its start. */
const LEFT_SECRETS_AGE_MS = 10 * 60_000;

/** Removes settings files that killed workers of earlier versions left in their folders. */
const sweepLeftSecrets = async () => {
  const dirs = (await readdir(tmpdir()).catch(() => /** @type {string[]} */ ([]))).filter((name) => name.startsWith(WORK_DIR_PREFIX));
  await Promise.all(
    dirs.map(async (dir) => {
      const file = path.join(tmpdir(), dir, LEFT_SECRETS_FILE);
      const written = await stat(file).catch(() => null);
      if (written !== null && Date.now() - written.mtimeMs > LEFT_SECRETS_AGE_MS) await rm(file, { force: true });
    }),
  );
};

/**
 * A runtime started before its settings are known.
 * @typedef {object} RuntimeGroup
 * @property {import('node:child_process').ChildProcess} child the runtime's process, leader of its group
 * @property {string} workDir its folder
 * @property {string} logFile where its output goes
 * @property {string | null} bundleEntry the command-line bundle entry its runtime runs from (null: from its sources)
 * @property {Promise<void>} swept the sweep of earlier versions' leftovers, started beside it
 */

/**
 * The latest command-line bundle entry that holds a runtime module, as its `latest.json` names it (sources
 * unchecked: read synchronously, in the time of a file read).
 * @returns {string | null}
 */
const latestBundleEntry = () => {
  try {
    const { key } = JSON.parse(readFileSync(path.join(cliCacheDir, LATEST), 'utf8'));
    const entry = path.join(cliCacheDir, String(key));
    return existsSync(path.join(entry, RUNTIME_BUNDLE)) ? entry : null;
  } catch {
    return null;
  }
};

/**
 * Starts the runtime, which loads its modules and bundle while it waits for its settings on its standard input,
 * and its guard (guard.mjs) beside it. The runtime leads a process group of its own, so that stopping (or killing)
 * the group takes the runtime and workerd; the guard, outside it, stops the group when this process ends, even by
 * kill -9 (the guard's standard input, a pipe from this process, closes). Synchronous, so that a command starting
 * it early has it running before it goes on loading its own modules.
 * @param {string} logFile
 * @param {string | null} bundleEntry the command-line bundle entry to run the runtime from, or null for its sources
 * @returns {RuntimeGroup}
 */
export const startRuntimeGroup = (logFile, bundleEntry) => {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const swept = sweepLeftSecrets();
  swept.catch(() => undefined);
  const workDir = mkdtempSync(path.join(tmpdir(), WORK_DIR_PREFIX));
  const log = openSync(logFile, 'a');
  try {
    const runtime = bundleEntry === null ? path.join(here, 'runtime.ts') : path.join(bundleEntry, RUNTIME_BUNDLE);
    // node:child_process rather than execa here: the log file's descriptor is handed over as is (execa takes no
    // descriptor number for stdout), so the worker's output never passes through this process.
    const child = spawn(process.execPath, [runtime], { cwd: repoRoot, detached: true, stdio: ['pipe', log, log] });
    if (child.pid === undefined) throw new Error('the local runtime did not start');
    const guard = spawn(process.execPath, [path.join(here, 'guard.mjs'), workDir, String(child.pid)], { cwd: repoRoot, detached: true, stdio: ['pipe', 'ignore', log] });
    // The guard's pipe stays open, unused, for as long as this process lives; neither keeps this process alive.
    guard.unref();
    /** @type {import('node:net').Socket} */ (guard.stdin).unref();
    return { child, workDir, logFile, bundleEntry, swept };
  } finally {
    closeSync(log);
  }
};

/**
 * Whether the runtime's process and pipe keep this process alive: not while unused (a command may end first).
 * @param {RuntimeGroup} group
 * @param {boolean} hold
 * @returns {RuntimeGroup}
 */
const holdsProcess = (group, hold) => {
  const pipe = /** @type {import('node:net').Socket | null} */ (group.child.stdin);
  if (hold) {
    group.child.ref();
    pipe?.ref();
  } else {
    group.child.unref();
    pipe?.unref();
  }
  return group;
};

/** @type {RuntimeGroup | null} */
let early = null;

/**
 * Starts the local runtime of the default log file now, for a command that will start its local worker once its
 * own modules are loaded (bin.mjs): the two load side by side. Unused, it ends with this process (its guard sees
 * its pipe close).
 * @param {string | null} [bundleEntry] the command-line bundle entry to run it from: by default the latest
 * @returns {void}
 */
export const startRuntimeEarly = (bundleEntry = latestBundleEntry()) => {
  try {
    early ??= holdsProcess(startRuntimeGroup(defaultLogFile(), bundleEntry), false);
  } catch {
    // The worker's own start tries again, and reports what fails.
  }
};

/**
 * The runtime started early, when it writes where this worker's output goes and runs from the command's own
 * bundle entry (or from its sources); taken once. One from another entry is let go: given no settings, it ends,
 * and its guard with it.
 * @param {string} logFile
 * @returns {RuntimeGroup | null}
 */
export const takeEarlyRuntime = (logFile) => {
  const group = early;
  early = null;
  if (group === null || group.logFile !== logFile || group.child.exitCode !== null) return null;
  if (group.bundleEntry !== null && group.bundleEntry !== commandEntry()) {
    group.child.stdin?.end();
    return null;
  }
  return holdsProcess(group, true);
};
