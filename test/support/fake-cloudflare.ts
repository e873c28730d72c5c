// A scripted Cloudflare API (client/v4) on 127.0.0.1 for the deploy tests: the account-level endpoints wrangler
// calls to create a D1 database and a queue, apply D1 migrations, set secrets, upload assets and deploy a Worker.
// Every answer is in Cloudflare's envelope ({success, errors, messages, result}); a call without the token, for
// another account or with a malformed body is refused as the real API refuses it; every call is recorded. D1 runs
// its SQL on a real SQLite database (node:sqlite).
import { createHash, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Context } from 'hono';

export interface CloudflareCall {
  readonly method: string;
  /** The path under /client/v4, with its query. */
  readonly path: string;
  /** The raw body (multipart and JSON alike), as text. */
  readonly body: string;
  status: number;
}

export interface UploadedScript {
  readonly metadata: Record<string, unknown>;
  /** Module part names. */
  readonly modules: readonly string[];
  readonly migrationTag: string | null;
  readonly secrets: Record<string, string>;
  readonly versionId: string;
}

export interface FakeCloudflare {
  /** For CLOUDFLARE_API_BASE_URL. */
  readonly baseURL: string;
  readonly accountId: string;
  readonly token: string;
  /** The account's workers.dev subdomain (null: the account has not chosen one). */
  readonly subdomain: string | null;
  readonly calls: CloudflareCall[];
  readonly databases: Map<string, { uuid: string; name: string; db: DatabaseSync }>;
  readonly queues: Map<string, { queue_id: string; queue_name: string; consumers: Record<string, unknown>[] }>;
  readonly scripts: Map<string, UploadedScript>;
  /** Every accepted Worker upload (first deploy or new version), in order. */
  readonly uploads: UploadedScript[];
  /** Asset hashes the account holds. */
  readonly assets: Set<string>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const envelope = (c: Context, result: unknown, status: 200 | 201 = 200, extra: Json = {}) =>
  c.json({ success: true, errors: [], messages: [], result, ...extra }, status);

const refuse = (c: Context, status: 400 | 401 | 403 | 404 | 409, code: number, message: string) =>
  c.json({ success: false, errors: [{ code, message }], messages: [], result: null }, status);

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const jsonBody = async (c: Context): Promise<Json | null> => {
  try {
    const body: unknown = JSON.parse(await c.req.text());
    return isRecord(body) ? body : null;
  } catch {
    return null;
  }
};

/** Splits a migration file into statements (drizzle's breakpoints and top-level semicolons; no triggers here). */
const statements = (sql: string): string[] =>
  sql
    .split(/--> statement-breakpoint|;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);

const runSql = (db: DatabaseSync, sql: string, params: unknown[]) => {
  const parts = statements(sql);
  if (params.length > 0 && parts.length !== 1) throw new Error('parameters need exactly one statement');
  return parts.map((statement) => {
    const prepared = db.prepare(statement);
    const results = prepared.columns().length > 0 ? prepared.all(...(params as never[])) : (prepared.run(...(params as never[])), []);
    return { results, success: true, meta: { changed_db: true, changes: 0, duration: 0, rows_read: 0, rows_written: 0 } };
  });
};

const COMPATIBILITY_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why a Worker upload's metadata is malformed (as the API refuses it), or null. */
const metadataProblem = (metadata: Json, modules: readonly string[]): string | null => {
  if (typeof metadata.main_module !== 'string' || !modules.includes(metadata.main_module)) return 'main_module names no uploaded module';
  if (typeof metadata.compatibility_date !== 'string' || !COMPATIBILITY_DATE.test(metadata.compatibility_date)) return 'compatibility_date is not a date';
  if (!Array.isArray(metadata.bindings)) return 'bindings is not a list';
  for (const binding of metadata.bindings) {
    if (!isRecord(binding) || typeof binding.name !== 'string' || typeof binding.type !== 'string') return 'a binding has no name or type';
  }
  return null;
};

/** `subdomain: null`: an account that never chose a workers.dev subdomain, as a new one. */
export const startFakeCloudflare = async ({ subdomain = 'tau2-test' }: { subdomain?: string | null } = {}): Promise<FakeCloudflare> => {
  const accountId = createHash('md5').update(randomUUID()).digest('hex');
  const token = `cf-test-token-${randomUUID()}`;
  const calls: CloudflareCall[] = [];
  const databases: FakeCloudflare['databases'] = new Map();
  const queues: FakeCloudflare['queues'] = new Map();
  const scripts: FakeCloudflare['scripts'] = new Map();
  const uploads: UploadedScript[] = [];
  const assets = new Set<string>();
  const uploadSessions = new Map<string, Set<string>>();
  const scriptSubdomains = new Map<string, boolean>();
  const schedules = new Map<string, unknown[]>();

  const app = new Hono().basePath('/client/v4');
  app.use(async (c, next) => {
    const url = new URL(c.req.url);
    const call: CloudflareCall = { method: c.req.method, path: url.pathname.slice('/client/v4'.length) + url.search, body: await c.req.raw.clone().text(), status: 0 };
    calls.push(call);
    const bearer = c.req.header('authorization');
    // Asset uploads carry the upload session's JWT instead of the API token.
    const assetUpload = url.pathname.endsWith('/workers/assets/upload');
    if (assetUpload ? !uploadSessions.has(bearer?.replace(/^Bearer /, '') ?? '') : bearer !== `Bearer ${token}`) {
      return refuse(c, 403, 10000, 'Authentication error');
    }
    if (c.req.path.startsWith('/client/v4/accounts/') && c.req.path.split('/')[4] !== accountId) return refuse(c, 403, 10000, 'Authentication error');
    await next();
    call.status = c.res.status;
  });

  const account = '/accounts/:account';

  // D1
  app.get(`${account}/d1/database`, (c) => {
    const name = c.req.query('name');
    const page = Number(c.req.query('page') ?? 1);
    const perPage = Number(c.req.query('per_page') ?? 1000);
    if (!(Number.isInteger(page) && page >= 1 && Number.isInteger(perPage) && perPage >= 1 && perPage <= 10_000)) return refuse(c, 400, 7400, 'The request is malformed: page');
    const all = [...databases.values()].filter((d) => name === undefined || d.name === name).map(({ uuid, name }) => ({ uuid, name, version: 'production', created_at: new Date(0).toISOString() }));
    const list = all.slice((page - 1) * perPage, page * perPage);
    return envelope(c, list, 200, { result_info: { page, per_page: perPage, count: list.length, total_count: all.length } });
  });
  app.post(`${account}/d1/database`, async (c) => {
    const body = await jsonBody(c);
    if (body === null || typeof body.name !== 'string' || !/^[a-z0-9-]{1,64}$/.test(body.name)) return refuse(c, 400, 7400, 'The request is malformed: name');
    if ([...databases.values()].some((d) => d.name === body.name)) return refuse(c, 409, 7502, 'A database with that name already exists');
    const uuid = randomUUID();
    databases.set(uuid, { uuid, name: body.name, db: new DatabaseSync(':memory:') });
    return envelope(c, { uuid, name: body.name, version: 'production', created_at: new Date().toISOString() });
  });
  app.get(`${account}/d1/database/:uuid`, (c) => {
    const database = databases.get(c.req.param('uuid'));
    if (!database) return refuse(c, 404, 7404, 'The database could not be found');
    return envelope(c, { uuid: database.uuid, name: database.name, version: 'production', num_tables: 0, file_size: 0 });
  });
  app.post(`${account}/d1/database/:uuid/query`, async (c) => {
    const database = databases.get(c.req.param('uuid'));
    if (!database) return refuse(c, 404, 7404, 'The database could not be found');
    const body = await jsonBody(c);
    if (body === null || typeof body.sql !== 'string') return refuse(c, 400, 7400, 'The request is malformed: sql');
    try {
      return envelope(c, runSql(database.db, body.sql, Array.isArray(body.params) ? body.params : []));
    } catch (error) {
      return refuse(c, 400, 7500, `${(error as Error).message}: SQLITE_ERROR`);
    }
  });

  // Queues
  const queueJson = (q: { queue_id: string; queue_name: string; consumers: Json[] }) => ({ ...q, producers: [], created_on: new Date(0).toISOString(), modified_on: new Date(0).toISOString() });
  app.get(`${account}/queues`, (c) => {
    const name = c.req.query('name');
    const list = [...queues.values()].filter((q) => name === undefined || q.queue_name === name).map(queueJson);
    return envelope(c, list, 200, { result_info: { page: 1, per_page: 100, count: list.length, total_count: list.length } });
  });
  app.post(`${account}/queues`, async (c) => {
    const body = await jsonBody(c);
    if (body === null || typeof body.queue_name !== 'string' || !/^[a-z0-9-]{1,63}$/.test(body.queue_name)) return refuse(c, 400, 11003, 'Invalid queue name');
    if ([...queues.values()].some((q) => q.queue_name === body.queue_name)) return refuse(c, 409, 11009, 'A queue with this name already exists');
    const queue = { queue_id: randomUUID().replace(/-/g, ''), queue_name: body.queue_name, consumers: [] };
    queues.set(queue.queue_id, queue);
    return envelope(c, queueJson(queue));
  });
  app.get(`${account}/queues/:id`, (c) => {
    const queue = queues.get(c.req.param('id'));
    return queue ? envelope(c, queueJson(queue)) : refuse(c, 404, 11000, 'Queue not found');
  });
  app.get(`${account}/queues/:id/consumers`, (c) => {
    const queue = queues.get(c.req.param('id'));
    return queue ? envelope(c, queue.consumers) : refuse(c, 404, 11000, 'Queue not found');
  });
  app.post(`${account}/queues/:id/consumers`, async (c) => {
    const queue = queues.get(c.req.param('id'));
    if (!queue) return refuse(c, 404, 11000, 'Queue not found');
    const body = await jsonBody(c);
    if (body === null || typeof body.script_name !== 'string') return refuse(c, 400, 11003, 'The request is malformed: script_name');
    const consumer = { ...body, consumer_id: randomUUID(), queue_name: queue.queue_name, type: 'worker', script: body.script_name };
    queue.consumers.push(consumer);
    return envelope(c, consumer);
  });
  app.put(`${account}/queues/:id/consumers/:consumer`, async (c) => {
    const queue = queues.get(c.req.param('id'));
    const index = queue?.consumers.findIndex((k) => k.consumer_id === c.req.param('consumer')) ?? -1;
    if (!queue || index < 0) return refuse(c, 404, 11000, 'Consumer not found');
    const body = await jsonBody(c);
    if (body === null) return refuse(c, 400, 11003, 'The request is malformed');
    queue.consumers[index] = { ...queue.consumers[index], ...body };
    return envelope(c, queue.consumers[index]);
  });

  // Workers
  const scriptNotFound = (c: Context) => refuse(c, 404, 10007, 'This Worker does not exist on your account.');
  app.get(`${account}/workers/services/:name`, (c) => {
    const script = scripts.get(c.req.param('name'));
    if (!script) return refuse(c, 404, 10090, 'workers.api.error.service_not_found');
    return envelope(c, { id: c.req.param('name'), default_environment: { environment: 'production', script: { id: c.req.param('name'), tag: 'tag', migration_tag: script.migrationTag } } });
  });
  app.get(`${account}/workers/scripts/:name/deployments`, (c) => {
    const script = scripts.get(c.req.param('name'));
    if (!script) return scriptNotFound(c);
    return envelope(c, { deployments: [{ id: script.versionId, source: 'wrangler', strategy: 'percentage', versions: [{ version_id: script.versionId, percentage: 100 }], created_on: new Date().toISOString() }] });
  });
  app.get(`${account}/workers/scripts/:name/secrets`, (c) => {
    const script = scripts.get(c.req.param('name'));
    return script ? envelope(c, Object.keys(script.secrets).map((name) => ({ name, type: 'secret_text' }))) : scriptNotFound(c);
  });
  app.post(`${account}/workers/scripts/:name/assets-upload-session`, async (c) => {
    const body = await jsonBody(c);
    if (body === null || !isRecord(body.manifest)) return refuse(c, 400, 10021, 'The request is malformed: manifest');
    const missing = new Set<string>();
    for (const entry of Object.values(body.manifest)) {
      if (!isRecord(entry) || typeof entry.hash !== 'string' || typeof entry.size !== 'number') return refuse(c, 400, 10021, 'The request is malformed: manifest entry');
      if (!assets.has(entry.hash)) missing.add(entry.hash);
    }
    const jwt = `upload-${randomUUID()}`;
    if (missing.size === 0) return envelope(c, { jwt: `complete-${randomUUID()}`, buckets: [] });
    uploadSessions.set(jwt, missing);
    return envelope(c, { jwt, buckets: [[...missing]] });
  });
  app.post(`${account}/workers/assets/upload`, async (c) => {
    const jwt = c.req.header('authorization')!.replace(/^Bearer /, '');
    const missing = uploadSessions.get(jwt)!;
    const form = await c.req.formData();
    for (const [hash] of form.entries()) {
      if (!missing.delete(hash)) return refuse(c, 400, 10021, `Asset ${hash} was not asked for`);
      assets.add(hash);
    }
    if (missing.size > 0) return envelope(c, {}, 200);
    uploadSessions.delete(jwt);
    return envelope(c, { jwt: `complete-${randomUUID()}` }, 201);
  });
  /** A Worker upload (a first deploy, or a version of an existing Worker): validated, then kept as the Worker's code. */
  const upload = async (c: Context): Promise<UploadedScript | Response> => {
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      return refuse(c, 400, 10021, 'The request is not multipart/form-data');
    }
    const metadataPart = form.get('metadata');
    let metadata: unknown = null;
    try {
      metadata = JSON.parse(typeof metadataPart === 'string' ? metadataPart : ((await (metadataPart as Blob | null)?.text()) ?? ''));
    } catch {
      return refuse(c, 400, 10021, 'metadata is not JSON');
    }
    if (!isRecord(metadata)) return refuse(c, 400, 10021, 'metadata is not an object');
    const modules = [...form.keys()].filter((k) => k !== 'metadata');
    const problem = metadataProblem(metadata, modules);
    if (problem !== null) return refuse(c, 400, 10021, problem);
    const name = c.req.param('name')!;
    const previous = scripts.get(name);
    const migrations = isRecord(metadata.migrations) ? metadata.migrations : null;
    if (migrations !== null && (migrations.old_tag ?? null) !== (previous?.migrationTag ?? null)) {
      return refuse(c, 400, 10079, "Migration old_tag does not match the script's current tag");
    }
    // `inherit` keeps a binding of the Worker's current version; with bindings_inherit=strict it must exist.
    const current = (previous?.metadata.bindings ?? []) as Json[];
    const bindings: Json[] = [];
    for (const binding of metadata.bindings as Json[]) {
      if (binding.type !== 'inherit') bindings.push(binding);
      else {
        const kept = current.find((b) => b.name === binding.name);
        if (!kept) return refuse(c, 400, 10021, `binding ${String(binding.name)} has nothing to inherit`);
        bindings.push(kept);
      }
    }
    metadata.bindings = bindings;
    const secrets: Record<string, string> = { ...(previous?.secrets ?? {}) };
    for (const binding of bindings) if (binding.type === 'secret_text') secrets[binding.name as string] = String(binding.text);
    const migrationTag = migrations !== null && typeof migrations.new_tag === 'string' ? migrations.new_tag : (previous?.migrationTag ?? null);
    const script = { metadata, modules, migrationTag, secrets, versionId: randomUUID() };
    scripts.set(name, script);
    uploads.push(script);
    return script;
  };
  app.put(`${account}/workers/scripts/:name`, async (c) => {
    const script = await upload(c);
    if (script instanceof Response) return script;
    return envelope(c, { id: c.req.param('name'), etag: script.versionId, startup_time_ms: 10, handlers: ['fetch', 'queue', 'scheduled'], migration_tag: script.migrationTag });
  });
  app.post(`${account}/workers/scripts/:name/versions`, async (c) => {
    if (!scripts.has(c.req.param('name'))) return scriptNotFound(c);
    const script = await upload(c);
    if (script instanceof Response) return script;
    return envelope(c, {
      id: script.versionId,
      number: 2,
      startup_time_ms: 10,
      metadata: { has_preview: false },
      resources: { script: { etag: script.versionId, handlers: ['fetch', 'queue', 'scheduled'] }, bindings: script.metadata.bindings },
    });
  });
  app.post(`${account}/workers/scripts/:name/deployments`, async (c) => {
    const script = scripts.get(c.req.param('name'));
    if (!script) return scriptNotFound(c);
    const body = await jsonBody(c);
    const versions = body?.versions;
    if (body?.strategy !== 'percentage' || !Array.isArray(versions) || !versions.every((v) => isRecord(v) && v.version_id === script.versionId && v.percentage === 100)) {
      return refuse(c, 400, 10021, 'The request is malformed: versions');
    }
    return envelope(c, { id: randomUUID(), source: 'api', strategy: 'percentage', versions, created_on: new Date().toISOString() });
  });
  app.patch(`${account}/workers/scripts/:name/script-settings`, async (c) => {
    if (!scripts.has(c.req.param('name'))) return scriptNotFound(c);
    const body = await jsonBody(c);
    return body === null ? refuse(c, 400, 10021, 'The request is malformed') : envelope(c, body);
  });
  app.get(`${account}/workers/workers/:name`, (c) => {
    const name = c.req.param('name');
    if (!scripts.has(name)) return scriptNotFound(c);
    return envelope(c, { id: name, name, subdomain: { enabled: scriptSubdomains.get(name) ?? false, previews_enabled: false } });
  });
  app.get(`${account}/workers/scripts/:name/settings`, (c) => {
    const script = scripts.get(c.req.param('name'));
    if (!script) return scriptNotFound(c);
    const { logpush = false, observability = null, tail_consumers = [], compatibility_date, compatibility_flags = [], placement = null } = script.metadata;
    // The Worker's bindings as the API lists them: secret values are never returned.
    const bindings = [
      ...(script.metadata.bindings as Json[]).filter((b) => b.type !== 'secret_text'),
      ...Object.keys(script.secrets).map((name) => ({ name, type: 'secret_text' })),
    ];
    return envelope(c, { bindings, logpush, observability, tail_consumers, compatibility_date, compatibility_flags, placement });
  });
  app.get(`${account}/workers/subdomain`, (c) => (subdomain === null ? refuse(c, 404, 10007, 'workers.api.error.not_found') : envelope(c, { subdomain })));
  app.get(`${account}/workers/scripts/:name/subdomain`, (c) => envelope(c, { enabled: scriptSubdomains.get(c.req.param('name')) ?? false, previews_enabled: false }));
  app.post(`${account}/workers/scripts/:name/subdomain`, async (c) => {
    const body = await jsonBody(c);
    if (body === null || typeof body.enabled !== 'boolean') return refuse(c, 400, 10021, 'The request is malformed: enabled');
    scriptSubdomains.set(c.req.param('name'), body.enabled);
    return envelope(c, { enabled: body.enabled, previews_enabled: false });
  });
  app.get(`${account}/workers/scripts/:name/schedules`, (c) => envelope(c, { schedules: schedules.get(c.req.param('name')) ?? [] }));
  app.put(`${account}/workers/scripts/:name/schedules`, async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return refuse(c, 400, 10021, 'The request is malformed');
    }
    if (!Array.isArray(body) || !body.every((s) => isRecord(s) && typeof s.cron === 'string')) return refuse(c, 400, 10021, 'The request is malformed: schedules');
    schedules.set(c.req.param('name'), body);
    return envelope(c, { schedules: body });
  });
  app.notFound((c) => refuse(c, 404, 7003, `No route for ${c.req.method} ${c.req.path}`));

  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/client/v4`,
    accountId,
    token,
    subdomain,
    calls,
    databases,
    queues,
    scripts,
    uploads,
    assets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
