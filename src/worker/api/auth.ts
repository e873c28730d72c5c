// Bearer authentication and the caller's tenant. With API_KEY configured, every request must carry
// `Authorization: Bearer <key>`: the operator key (API_KEY itself, tenant `operator`, may administer keys) or
// a tenant's key (stored hashed in D1). Without API_KEY (local development) every caller is the operator.
// Failed authentications are rate-limited per client address.
import { createMiddleware } from 'hono/factory';
import { ApiError } from './errors.ts';
import { findActiveKey } from '../db/api-keys.ts';
import { sha256Text } from '../crypto.ts';

export const OPERATOR_TENANT = 'operator';

/** Who is calling: the tenant every resource they create or read belongs to. */
export interface Caller {
  readonly tenant: string;
  readonly operator: boolean;
}

export type AppEnv = { Bindings: Env; Variables: { caller: Caller } };

const OPERATOR: Caller = { tenant: OPERATOR_TENANT, operator: true };
/** The window of the AUTH_FAILURES rate limit (wrangler.toml), told to a throttled client. */
const AUTH_FAILURE_PERIOD_SECONDS = 60;

const digest = async (text: string): Promise<ArrayBuffer> => crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));

/** Compares digests in constant time, so the key's length and prefix do not leak through timing. */
const sameSecret = async (given: string, expected: string): Promise<boolean> =>
  crypto.subtle.timingSafeEqual(await digest(given), await digest(expected));

const bearer = (header: string | undefined): string | null => /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? null;

const callerOf = async (env: Env, token: string | null, operatorKey: string): Promise<Caller | null> => {
  if (token === null) return null;
  if (await sameSecret(token, operatorKey)) return OPERATOR;
  const key = await findActiveKey(env.DB, await sha256Text(token));
  return key ? { tenant: key.tenantId, operator: false } : null;
};

export const authenticate = createMiddleware<AppEnv>(async function authenticate(c, next) {
  const operatorKey = c.env.API_KEY;
  const caller = operatorKey ? await callerOf(c.env, bearer(c.req.header('authorization')), operatorKey) : OPERATOR;
  if (!caller) {
    const client = c.req.header('cf-connecting-ip') ?? 'unknown';
    if (!(await c.env.AUTH_FAILURES.limit({ key: client })).success) {
      c.header('Retry-After', String(AUTH_FAILURE_PERIOD_SECONDS));
      throw new ApiError(429, 'rate_limited', 'Too many failed authentications from this client; try again later');
    }
    throw new ApiError(401, 'unauthorized', 'Missing or invalid API key (Authorization: Bearer <key>)');
  }
  c.set('caller', caller);
  await next();
});

/** Admin routes answer only the operator; to anyone else they do not exist. */
export const requireOperator = createMiddleware<AppEnv>(async function requireOperator(c, next) {
  if (!c.get('caller').operator) throw new ApiError(404, 'not_found', `No route ${c.req.method} ${c.req.path}`);
  await next();
});
