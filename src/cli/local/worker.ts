// The local tau2-edge Worker: applies the local D1 migrations, starts the local runtime (runtime.ts: the
// deploy bundle on workerd) on a free port, waits until it answers, and stops it. Its settings reach it through
// a pipe (never argv, never a file, never printed), and its output goes to a log file so that it stays out of the
// progress display.
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultLogFile, localStateRoot, startRuntimeGroup, takeEarlyRuntime } from './runtime-group.mjs';
import type { RuntimeSettings } from './runtime-settings.ts';

export { repoRoot, wranglerBin } from '../checkout.mjs';
export { localStateRoot, startRuntimeEarly } from './runtime-group.mjs';

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

export const startLocalWorker = async (options: LocalWorkerOptions = {}): Promise<LocalWorker> => {
  const persistTo = options.persistTo ?? defaultPersistDir();
  const logFile = options.logFile ?? defaultLogFile();
  await mkdir(path.dirname(logFile), { recursive: true });
  // Imported when a worker starts: the command loads this module with its own, and most commands start none.
  const [{ applyLocalMigrations }, { default: getPort }] = await Promise.all([import('./migrations.ts'), import('get-port')]);
  await applyLocalMigrations(persistTo);

  const { child, workDir, swept } = takeEarlyRuntime(logFile) ?? startRuntimeGroup(logFile, null);
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
  // The settings (secrets among them) go through the runtime's standard input, never to disk.
  child.stdin!.end(`${JSON.stringify(settings)}\n`);
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
