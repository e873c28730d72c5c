// The Worker's calls that Cloudflare's per-invocation limits count, logged one line each, only when the
// LIMITS_TRACE variable is set (by `npm run limits`; never in a deployment): `limits-trace fetch`, `... assets`,
// `... do METHOD`, `... queue`, `... ratelimit` and `... d1 PARAMS` (one line per D1 statement run, with its
// bound parameter count). The runtime files each log line under the invocation that made it, and hands it to
// a tail Worker, so the per-invocation counts come from the runtime's own attribution. With the variable unset
// nothing is wrapped: the hot path is untouched.
import { env } from 'cloudflare:workers';

const TRACE = 'limits-trace';
const trace = (what: string): void => console.log(`${TRACE} ${what}`);

type Method = (...args: unknown[]) => unknown;

/** Replaces `proto[name]` by a function that logs `what(this, args)` before each call. */
const logBefore = (proto: object, name: string, what: (self: object, args: unknown[]) => string): void => {
  const original = (proto as Record<string, Method>)[name];
  if (typeof original !== 'function') return;
  Object.defineProperty(proto, name, {
    configurable: true,
    writable: true,
    value: function (this: object, ...args: unknown[]) {
      trace(what(this, args));
      return original.apply(this, args);
    },
  });
};

/** A Durable Object stub whose every call (RPC method or fetch) is logged. */
const tracedStub = (stub: object): object =>
  new Proxy(stub, {
    get(target, prop) {
      const value = (target as Record<PropertyKey, unknown>)[prop];
      if (typeof prop !== 'string' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        trace(`do ${prop}`);
        // Reflect: an RPC method's own `apply` would be a remote call.
        return Reflect.apply(value as Method, target, args);
      };
    },
  });

const install = (bindings: Env): void => {
  const fetch = globalThis.fetch;
  globalThis.fetch = (...args: Parameters<typeof fetch>) => {
    trace('fetch');
    return fetch(...args);
  };
  logBefore(Object.getPrototypeOf(bindings.ASSETS), 'fetch', () => 'assets');
  logBefore(Object.getPrototypeOf(bindings.TURNS), 'send', () => 'queue');
  logBefore(Object.getPrototypeOf(bindings.TURNS), 'sendBatch', () => 'queue');
  logBefore(Object.getPrototypeOf(bindings.AUTH_FAILURES), 'limit', () => 'ratelimit');
  // One object class serves every namespace binding.
  const namespace = Object.getPrototypeOf(bindings.EPISODE) as Record<string, Method>;
  for (const name of ['get', 'getByName'] as const) {
    const original = namespace[name];
    if (typeof original !== 'function') continue;
    namespace[name] = function (this: object, ...args: unknown[]) {
      return tracedStub(original.apply(this, args) as object);
    };
  }
  // D1: a statement's bound parameters are known at bind; it counts as a query when run, alone or in a batch.
  const params = new WeakMap<object, number>();
  const database = bindings.DB as unknown as { prepare(sql: string): object };
  const statement = Object.getPrototypeOf(database.prepare('SELECT 1')) as Record<string, Method>;
  const bind = statement['bind']!;
  statement['bind'] = function (this: object, ...values: unknown[]) {
    const bound = bind.apply(this, values) as object;
    params.set(bound, values.length);
    return bound;
  };
  for (const run of ['first', 'all', 'run', 'raw']) logBefore(statement, run, (self) => `d1 ${params.get(self) ?? 0}`);
  const db = Object.getPrototypeOf(database) as Record<string, Method>;
  const batch = db['batch']!;
  db['batch'] = function (this: object, ...args: unknown[]) {
    for (const s of args[0] as object[]) trace(`d1 ${params.get(s) ?? 0}`);
    return batch.apply(this, args);
  };
};

if ((env as Env).LIMITS_TRACE) install(env as Env);
