// Authentication and the caller's tenant. With API_KEY configured, every request must carry
// `Authorization: Bearer <key>` — the operator key (API_KEY itself, tenant `operator`, may administer keys) or
// a tenant's key (stored hashed in D1) — or a browser session cookie opened with one of those keys
// (src/worker/ui/browser-session.ts), whose state-changing requests must also carry the session's CSRF token.
// Without API_KEY (local development) every caller is the operator. Failed authentications are rate-limited
// per client address.
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import { ApiError } from './errors.ts';
import { findActiveKey } from '../db/api-keys.ts';
import { sha256Text } from '../crypto.ts';
import { CSRF_HEADER, sessionCaller } from '../ui/browser-session.ts';
import { OPERATOR_TENANT } from '../tenancy/tenants.ts';

/** Who is calling: the tenant every resource they create or read belongs to. */
export interface Caller {
  readonly tenant: string;
  readonly operator: boolean;
  /** Set for a browser session: the token its pages put in their forms. */
  readonly csrfToken?: string;
}

export type AppEnv = { Bindings: Env; Variables: { caller: Caller } };

const OPERATOR: Caller = { tenant: OPERATOR_TENANT, operator: true };
/** The window of the AUTH_FAILURES rate limit (wrangler.toml), told to a throttled client. */
const AUTH_FAILURE_PERIOD_SECONDS = 60;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const digest = async (text: string): Promise<ArrayBuffer> => crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));

/** Compares digests in constant time, so the secret's length and prefix do not leak through timing. */
export const sameSecret = async (given: string, expected: string): Promise<boolean> =>
  crypto.subtle.timingSafeEqual(await digest(given), await digest(expected));

export const bearer = (header: string | undefined): string | null => /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? null;

/** The caller an API key stands for, with the tenant key's id (null for the operator key); null for no valid key. */
export const callerOfKey = async (env: Env, token: string, operatorKey: string): Promise<{ caller: Caller; keyId: string | null } | null> => {
  if (await sameSecret(token, operatorKey)) return { caller: OPERATOR, keyId: null };
  const key = await findActiveKey(env.DB, await sha256Text(token));
  return key ? { caller: { tenant: key.tenantId, operator: false }, keyId: key.id } : null;
};

/** Counts a failed authentication against the client's address: 429 once over the limit, else the given error. */
export const authFailure = async <E extends { Bindings: Env }>(c: Context<E>, error: ApiError): Promise<ApiError> => {
  const client = c.req.header('cf-connecting-ip') ?? 'unknown';
  if (!(await c.env.AUTH_FAILURES.limit({ key: client })).success) {
    return new ApiError(429, 'rate_limited', 'Too many failed authentications from this client; try again later', undefined, {
      'Retry-After': String(AUTH_FAILURE_PERIOD_SECONDS),
    });
  }
  return error;
};

const unauthorized = (): ApiError => new ApiError(401, 'unauthorized', 'Missing or invalid API key (Authorization: Bearer <key>)');

const authenticatedCaller = async (c: Context<AppEnv>, operatorKey: string): Promise<Caller> => {
  const token = bearer(c.req.header('authorization'));
  if (token !== null) {
    const found = await callerOfKey(c.env, token, operatorKey);
    if (!found) throw await authFailure(c, unauthorized());
    return found.caller;
  }
  const session = await sessionCaller(c, operatorKey, Date.now());
  if (!session) throw await authFailure(c, unauthorized());
  if (!SAFE_METHODS.has(c.req.method) && !(await sameSecret(c.req.header(CSRF_HEADER) ?? '', session.csrfToken))) {
    throw new ApiError(403, 'csrf_failed', `A request authenticated by the session cookie must carry its CSRF token (${CSRF_HEADER})`);
  }
  return session;
};

/**
 * Whether the request's key (or session) is still valid, checked again without counting a failure: a long-lived
 * response (an event stream) ends once its key is revoked.
 */
export const stillAuthenticated = async (c: Context<AppEnv>): Promise<boolean> => {
  const operatorKey = c.env.API_KEY;
  if (!operatorKey) return true;
  const token = bearer(c.req.header('authorization'));
  if (token !== null) return (await callerOfKey(c.env, token, operatorKey)) !== null;
  return (await sessionCaller(c, operatorKey, Date.now())) !== null;
};

export const authenticate = createMiddleware<AppEnv>(async function authenticate(c, next) {
  const operatorKey = c.env.API_KEY;
  c.set('caller', operatorKey ? await authenticatedCaller(c, operatorKey) : OPERATOR);
  await next();
});

/** Admin routes answer only the operator; to anyone else they do not exist. */
export const requireOperator = createMiddleware<AppEnv>(async function requireOperator(c, next) {
  if (!c.get('caller').operator) throw new ApiError(404, 'not_found', `No route ${c.req.method} ${c.req.path}`);
  await next();
});
