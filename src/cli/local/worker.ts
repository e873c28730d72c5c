// The local tau2-edge Worker: applies the local D1 migrations, starts the local runtime (runtime.ts: the
// deploy bundle on workerd) on a free port, waits until it answers, and stops it. Its settings reach it through
// a pipe (never argv, never a file, never printed), and its output goes to a log file so that it stays out of the
// progress display.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../checkout.ts';
import type { RuntimeSettings } from './runtime-settings.ts';

export { repoRoot, wranglerBin } from '../checkout.ts';

export interface LocalWorkerOptions {
  /** Durable Object and D1 state; a restart with the same folder resumes where the last one stopped. */
  readonly persistTo?: string;
  /** Worker variables and secrets (e.g. the provider URL and key). */
  readonly env?: Readonly<Record<string, string>>;
  /** Where the runtime's output goes. */
  readonly logFile?: string;
  /** Keeps a port across restarts (e.g. so clients reconnect to the same URL). */
  readonly port?: number;
  readonly readyTimeoutMs?: number;
  /** Opens the DevTools inspector of the Worker's isolate (e.g. to profile it); it costs the runtime CPU. */
  readonly inspector?: boolean;
  /** Where a tail Worker posts each invocation's limit-counted calls (`npm run limits`; see runtime.ts). */
  readonly limitsTraceUrl?: string;
}

export interface LocalWorker {
  readonly url: string;
  readonly port: number;
  /** The DevTools inspector of the Worker's isolate (GET /json, then its WebSocket), when asked for. */
  readonly inspectorPort: number | null;
  readonly logFile: string;
  /** The process group of the local runtime and its workerd process. */
  readonly pid: number;
  /** Stops the whole process group and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Where the local worker keeps its state and log: TAU2_EDGE_STATE_DIR (e.g. a test suite's own), else the checkout's `.wrangler`. */
export const localStateRoot = (): string => process.env.TAU2_EDGE_STATE_DIR || path.join(repoRoot, '.wrangler');

export const defaultPersistDir = (): string => path.join(localStateRoot(), 'state');

/**
 * The local worker's CREDENTIALS_KEY, kept beside its state (owner-only), so secrets it sealed (e.g. a run's
 * agent-endpoint headers) still open when it is started again to resume that run.
 */
export const localCredentialsKey = async (persistTo: string = defaultPersistDir()): Promise<string> => {
  const file = path.join(persistTo, 'tau2-edge-credentials.key');
  await mkdir(persistTo, { recursive: true });
  try {
    await writeFile(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await readFile(file, 'utf8')).trim();
};

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

const logTail = async (file: string): Promise<string> => {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-30).join('\n');
};

/** Whether anything accepts connections on the port yet: a refused connection costs next to nothing. */
const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Polls `GET /v1/health` until it answers 200: every 20 ms a connection attempt until the port accepts (workerd
 * listens once its Workers are loaded), so that a start waits little past the runtime's readiness, then the
 * health request, every 100 ms while it does not answer 200.
 */
const waitHealthy = async (url: string, port: number, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The local runtime exited (${child.exitCode ?? child.signalCode}) before it was ready; log ${logFile}:\n${await logTail(logFile)}`);
    }
    if (!(await accepts(port))) {
      await sleep(20);
      continue;
    }
    try {
      const response = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not answering yet
    }
    await sleep(100);
  }
  throw new Error(`The local runtime did not answer ${url}/v1/health within ${timeoutMs / 1000} s; log ${logFile}:\n${await logTail(logFile)}`);
};

/** The local worker's own folder under the system temporary folder (its bundle), removed when it stops. */
const WORK_DIR_PREFIX = 'tau2-edge-worker-';
/** The settings file earlier versions wrote there, secrets included, which a killed worker left behind. */
const LEFT_SECRETS_FILE = 'worker-vars.json';

/** A settings file older than this is a leftover: an earlier version's runtime reads its file within its start. */
const LEFT_SECRETS_AGE_MS = 10 * 60_000;

/** Removes settings files that killed workers of earlier versions left in their folders. */
const sweepLeftSecrets = async (): Promise<void> => {
  const dirs = (await readdir(tmpdir()).catch(() => [] as string[])).filter((name) => name.startsWith(WORK_DIR_PREFIX));
  await Promise.all(
    dirs.map(async (dir) => {
      const file = path.join(tmpdir(), dir, LEFT_SECRETS_FILE);
      const written = await stat(file).catch(() => null);
      if (written !== null && Date.now() - written.mtimeMs > LEFT_SECRETS_AGE_MS) await rm(file, { force: true });
    }),
  );
};

const defaultLogFile = (): string => path.join(localStateRoot(), 'tau2-edge-dev.log');

/** A runtime started before its settings are known: its guard process, its folder and where its output goes. */
interface RuntimeGroup {
  readonly child: ChildProcess;
  readonly workDir: string;
  readonly logFile: string;
  /** The sweep of earlier versions' leftovers, started beside it. */
  readonly swept: Promise<void>;
}

/**
 * Starts the guard and, in it, the runtime, which loads its modules and bundle while it waits for its settings.
 * Its own process group, so that stopping (or killing) it takes the guard, the runtime and workerd; the guard
 * leads the group and ends it when this process ends, even by kill -9 (its stdin pipe closes). Synchronous, so
 * that a command starting it early has it running before it goes on loading its own modules.
 */
const startRuntimeGroup = (logFile: string): RuntimeGroup => {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const swept = sweepLeftSecrets();
  swept.catch(() => undefined);
  const workDir = mkdtempSync(path.join(tmpdir(), WORK_DIR_PREFIX));
  const log = openSync(logFile, 'a');
  const here = path.dirname(fileURLToPath(import.meta.url));
  // node:child_process rather than execa here: the log file's descriptor is handed to the guard as is (execa takes
  // no descriptor number for stdout), so the worker's output never passes through this process.
  const child = spawn(process.execPath, [path.join(here, 'guard.mjs'), workDir, process.execPath, path.join(here, 'runtime.ts')], {
    cwd: repoRoot,
    detached: true,
    stdio: ['pipe', log, log],
  });
  closeSync(log);
  return { child, workDir, logFile, swept };
};

let early: RuntimeGroup | null = null;

/**
 * Starts the local runtime of the default log file now, for a command that will start its local worker once its
 * own modules are loaded (bin.ts): the two load side by side. Unused, it ends with this process (its guard sees
 * the pipe close).
 */
export const startRuntimeEarly = (): void => {
  try {
    early ??= holdsProcess(startRuntimeGroup(defaultLogFile()), false);
  } catch {
    // The worker's own start tries again, and reports what fails.
  }
};

/** Whether the runtime's process and pipe keep this process alive: not while unused (a command may end first). */
const holdsProcess = (group: RuntimeGroup, hold: boolean): RuntimeGroup => {
  const pipe = group.child.stdin as Socket | null;
  if (hold) {
    group.child.ref();
    pipe?.ref();
  } else {
    group.child.unref();
    pipe?.unref();
  }
  return group;
};

/** The runtime started early, when it writes where this worker's output goes; taken once. */
const takeEarlyRuntime = (logFile: string): RuntimeGroup | null => {
  const group = early;
  early = null;
  if (group === null || group.logFile !== logFile || group.child.exitCode !== null) return null;
  return holdsProcess(group, true);
};

export const startLocalWorker = async (options: LocalWorkerOptions = {}): Promise<LocalWorker> => {
  const persistTo = options.persistTo ?? defaultPersistDir();
  const logFile = options.logFile ?? defaultLogFile();
  await mkdir(path.dirname(logFile), { recursive: true });
  // Imported here: bin.ts loads this module before it starts the runtime early, so it stays light.
  const [{ applyLocalMigrations }, { default: getPort }] = await Promise.all([import('./migrations.ts'), import('get-port')]);
  await applyLocalMigrations(persistTo);

  const { child, workDir, swept } = takeEarlyRuntime(logFile) ?? startRuntimeGroup(logFile);
  await swept;
  const port = options.port ?? (await getPort({ host: '127.0.0.1' }));
  const inspectorPort = options.inspector === true ? await getPort({ host: '127.0.0.1' }) : null;
  const settings: RuntimeSettings = {
    persist_to: persistTo,
    port,
    ...(inspectorPort === null ? {} : { inspector_port: inspectorPort }),
    ...(options.limitsTraceUrl === undefined ? {} : { limits_trace: options.limitsTraceUrl }),
    vars: { ...(options.env ?? {}) },
  };
  // The settings (secrets among them) go through the guard's standard input to the runtime's, never to disk;
  // the pipe stays open, as the guard's sign that this process lives.
  child.stdin!.write(`${JSON.stringify(settings)}\n`);
  const url = `http://127.0.0.1:${port}`;

  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
      // Escalates to SIGKILL when it has not exited within 5 s.
      const force = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 5_000);
      await exited(child);
      clearTimeout(force);
    }
    await rm(workDir, { recursive: true, force: true });
  };

  try {
    await waitHealthy(url, port, child, logFile, options.readyTimeoutMs ?? 60_000);
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
  return { url, port, inspectorPort, logFile, pid: child.pid!, stop };
};
