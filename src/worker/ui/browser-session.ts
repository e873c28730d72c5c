// Browser sessions: an API key, given once on the login page, is exchanged for an HttpOnly, SameSite=Strict
// cookie signed with a secret derived from the operator key (API_KEY), so rotating that key ends every session.
// The cookie names the tenant and the key it was opened with (by id, never the key itself); a revoked key ends
// its sessions at the next request. State-changing requests that authenticate by cookie must carry the
// session's CSRF token, which only pages served to that session know.
import type { Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import { z } from 'zod';
import { findActiveKeyById } from '../db/api-keys.ts';
import { sha256Text } from '../crypto.ts';

export const SESSION_COOKIE = 'tau2_session';
/** The header (API calls) and form field (pages) that carry the session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FIELD = 'csrf';
/** A session lasts a working day; then the key is asked for again. */
export const SESSION_SECONDS = 12 * 60 * 60;

const SessionSchema = z.object({
  tenant: z.string(),
  /** The tenant key's id; null for the operator key. */
  key_id: z.string().nullable(),
  expires_at: z.number(),
});
export type Session = z.infer<typeof SessionSchema>;

export interface SessionCaller {
  readonly tenant: string;
  readonly operator: boolean;
  /** The token the session's state-changing requests must carry. */
  readonly csrfToken: string;
}

const sessionSecret = (operatorKey: string): Promise<string> => sha256Text(`tau2-edge browser session\n${operatorKey}`);

const csrfTokenOf = async (operatorKey: string, cookieValue: string): Promise<string> =>
  sha256Text(`tau2-edge csrf\n${await sessionSecret(operatorKey)}\n${cookieValue}`);

export const openSession = async (c: Context, operatorKey: string, tenant: string, keyId: string | null, nowMs: number): Promise<void> => {
  const session: Session = { tenant, key_id: keyId, expires_at: Math.floor(nowMs / 1000) + SESSION_SECONDS };
  await setSignedCookie(c, SESSION_COOKIE, JSON.stringify(session), await sessionSecret(operatorKey), {
    httpOnly: true,
    sameSite: 'Strict',
    secure: new URL(c.req.url).protocol === 'https:',
    path: '/',
    maxAge: SESSION_SECONDS,
  });
};

export const closeSession = (c: Context): void => {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
};

/** The caller of a valid, unexpired session whose key is still active; null otherwise. */
export const sessionCaller = async <E extends { Bindings: Env }>(c: Context<E>, operatorKey: string, nowMs: number): Promise<SessionCaller | null> => {
  const value = await getSignedCookie(c, await sessionSecret(operatorKey), SESSION_COOKIE);
  if (typeof value !== 'string') return null;
  let session: Session;
  try {
    session = SessionSchema.parse(JSON.parse(value));
  } catch {
    return null;
  }
  if (session.expires_at * 1000 <= nowMs) return null;
  if (session.key_id !== null && (await findActiveKeyById(c.env.DB, session.key_id))?.tenantId !== session.tenant) return null;
  return { tenant: session.tenant, operator: session.key_id === null, csrfToken: await csrfTokenOf(operatorKey, value) };
};
