// The local Worker's runtime: the bundle `wrangler deploy` uploads, run on workerd through Miniflare with the
// bindings wrangler.toml declares, its state in a folder, until it is signalled. `wrangler dev` is left out on
// purpose: its development tooling wraps every SQLite-backed Durable Object class so that each new object
// makes an extra blocking storage write, and keeps a DevTools session and a proxy Worker in front; together
// they cost about a sixth of a run's CPU and a second runtime process, none of which a deployed Worker pays.
// Usage: node local-runtime.ts --vars FILE --persist-to DIR --bundle-dir DIR --port N [--inspector-port N] [--limits-trace URL]
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { Log, LogLevel, Miniflare, convertV4MiniflareOptions } from 'miniflare';
import type { Unstable_MiniflareWorkerOptions } from 'wrangler';
import { repoRoot, wranglerBin } from './local-worker.ts';
import { liveObjectsBound, openFileLimit } from './open-files.ts';

const { values } = parseArgs({
  options: {
    vars: { type: 'string' },
    'persist-to': { type: 'string' },
    'bundle-dir': { type: 'string' },
    port: { type: 'string' },
    'inspector-port': { type: 'string' },
    'limits-trace': { type: 'string' },
  },
});
const required = (name: keyof typeof values): string => {
  const value = values[name];
  if (value === undefined) throw new Error(`local-runtime: --${name} is required`);
  return value;
};

const configPath = path.join(repoRoot, 'wrangler.toml');
const bundleDir = required('bundle-dir');
const optionsScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker-options.ts');
// The deploy bundle, built without uploading anything, and the Worker's options, both in processes of their own.
const [built, printed] = await Promise.all([
  execa(wranglerBin, ['deploy', '--dry-run', '--outdir', bundleDir, '--config', configPath], { cwd: repoRoot, env: { CI: 'true' }, all: true, reject: false }),
  execa(process.execPath, [optionsScript, configPath], { cwd: repoRoot, reject: false }),
]);
if (built.failed) throw new Error(`Building the Worker bundle failed:\n${built.all ?? ''}`);
if (printed.failed) throw new Error(`Reading wrangler.toml failed:\n${printed.stderr}`);
const { name, main, workerOptions } = JSON.parse(printed.stdout) as {
  name: string;
  main: string;
  workerOptions: Omit<Unstable_MiniflareWorkerOptions['workerOptions'], 'modulesRules'>;
};
// The caller's variables and secrets override wrangler.toml's [vars], as an env file does for `wrangler dev`.
const vars = JSON.parse(await readFile(required('vars'), 'utf8')) as Record<string, string>;
// Live objects bounded under the open-file limit workerd inherits, unless the caller sets the bound.
const openFiles = await openFileLimit();
const objectsBound: Record<string, string> = openFiles === null ? {} : { LIMIT_LIVE_OBJECTS: String(liveObjectsBound(openFiles)) };
const inspectorPort = values['inspector-port'] === undefined ? undefined : Number(values['inspector-port']);
// With --limits-trace, the Worker logs the calls the platform's per-invocation limits count (LIMITS_TRACE), and a
// tail Worker posts each invocation's kind, start and those lines to the URL (see scripts/limits/trace.ts).
const traceUrl = values['limits-trace'];
const limitsTail = {
  name: 'limits-tail',
  modules: true,
  compatibilityDate: '2026-11-01',
  bindings: { TRACE_URL: traceUrl ?? '' },
  script: `export default { async tail(events, env) {
    const invocations = events.map((e) => ({
      kind: e.event === null ? 'unknown' : 'request' in e.event ? 'http' : 'queue' in e.event ? 'queue' : 'rpcMethod' in e.event ? 'rpc' : 'cron' in e.event ? 'cron' : 'scheduledTime' in e.event ? 'alarm' : 'other',
      start: e.eventTimestamp,
      lines: e.logs.map((l) => String(l.message[0])).filter((m) => m.startsWith('limits-trace ')),
    }));
    await fetch(env.TRACE_URL, { method: 'POST', body: JSON.stringify(invocations) });
  } }`,
};

const runtime = new Miniflare(
  convertV4MiniflareOptions({
    host: '127.0.0.1',
    port: Number(required('port')),
    ...(inspectorPort === undefined ? {} : { inspectorHost: '127.0.0.1', inspectorPort }),
    // The layout `wrangler d1 migrations apply --persist-to DIR` writes to.
    resourcePersistencePath: path.join(required('persist-to'), 'v3'),
    // Scheduled events on demand: GET /cdn-cgi/local/scheduled?cron=…, only on 127.0.0.1.
    unsafeTriggerHandlers: true,
    // No dev registry (none is named): local workers of this project running side by side (tests, a second
    // CLI) share the worker's name, and a registry would let one's bindings reach the other.
    log: new Log(LogLevel.WARN),
    workers: [
      {
        ...workerOptions,
        name,
        modules: true,
        modulesRoot: bundleDir,
        scriptPath: path.join(bundleDir, path.basename(main, path.extname(main)) + '.js'),
        bindings: { ...(workerOptions.bindings ?? {}), ...objectsBound, ...vars, ...(traceUrl === undefined ? {} : { LIMITS_TRACE: '1' }) },
        ...(traceUrl === undefined ? {} : { tails: [limitsTail.name] }),
      },
      ...(traceUrl === undefined ? [] : [limitsTail]),
    ],
  }),
);
await runtime.ready;
console.log('local runtime ready');

const stop = (): void => {
  void runtime.dispose().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
