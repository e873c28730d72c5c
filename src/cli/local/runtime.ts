// The local Worker's runtime: the bundle `wrangler deploy` uploads, run on workerd through Miniflare with the
// bindings wrangler.toml declares, its state in a folder, until it is signalled. `wrangler dev` is left out on
// purpose: its development tooling wraps every SQLite-backed Durable Object class so that each new object
// makes an extra blocking storage write, and keeps a DevTools session and a proxy Worker in front; together
// they cost about a sixth of a run's CPU and a second runtime process, none of which a deployed Worker pays.
// Its settings (the state folder, the port, the Worker's variables and secrets) arrive as one JSON object on
// standard input (never in a file, never in argv), so it can start loading before the caller has them.
// Usage: node runtime.ts < RuntimeSettings as JSON
import { createRequire } from 'node:module';
import { text } from 'node:stream/consumers';
import path from 'node:path';
import type * as MiniflareModule from 'miniflare';
import { assetsAsDiskBinding } from './assets-binding.ts';
import { workerBundle } from './bundle.ts';
import { liveObjectsBound, openFileLimit } from './open-files.ts';
import { RuntimeSettingsSchema } from './runtime-settings.ts';

// The deploy bundle and the Worker's options, from the cache when the sources are unchanged (bundle.ts), read
// while the settings are still on their way.
const bundle = workerBundle();
// Required, not imported (and while the bundle's files are read): an ES import of this CommonJS package makes
// Node scan its few megabytes of source for export names first, about half a second of CPU on every start.
const { Log, LogLevel, Miniflare, convertV4MiniflareOptions } = createRequire(import.meta.url)('miniflare') as typeof MiniflareModule;
const settingsText = await text(process.stdin);
// No settings: the command that started it early ended without a worker, or let it go for another.
if (settingsText.trim() === '') process.exit(0);
const settings = RuntimeSettingsSchema.parse(JSON.parse(settingsText));
const { dir: bundleDir, scriptPath, name, workerOptions } = await bundle;
// The caller's variables and secrets override wrangler.toml's [vars], as an env file does for `wrangler dev`.
const { vars } = settings;
// Live objects bounded under the open-file limit workerd inherits, unless the caller sets the bound.
const openFiles = await openFileLimit();
const objectsBound: Record<string, string> = openFiles === null ? {} : { LIMIT_LIVE_OBJECTS: String(liveObjectsBound(openFiles)) };
const inspectorPort = settings.inspector_port;
// With limits_trace, the Worker logs the calls the platform's per-invocation limits count (LIMITS_TRACE), and a
// tail Worker posts each invocation's kind, start and those lines to the URL (see scripts/limits/trace.ts).
const traceUrl = settings.limits_trace;
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
    port: settings.port,
    ...(inspectorPort === undefined ? {} : { inspectorHost: '127.0.0.1', inspectorPort }),
    // The layout `wrangler d1 migrations apply --persist-to DIR` writes to.
    resourcePersistencePath: path.join(settings.persist_to, 'v3'),
    // Scheduled events on demand: GET /cdn-cgi/local/scheduled?cron=…, only on 127.0.0.1.
    unsafeTriggerHandlers: true,
    // No dev registry (none is named): local workers of this project running side by side (tests, a second
    // CLI) share the worker's name, and a registry would let one's bindings reach the other.
    log: new Log(LogLevel.WARN),
    workers: [
      {
        ...assetsAsDiskBinding(workerOptions),
        name,
        modules: true,
        modulesRoot: bundleDir,
        scriptPath,
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
