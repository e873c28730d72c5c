// Browser sessions: a session cookie lasts SESSION_SECONDS, is bound to the operator key it was signed under,
// and its CSRF token differs from one session to the next.
import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { SESSION_SECONDS, openSession, sessionCaller } from '../../src/worker/ui/browser-session.ts';

const OPERATOR_KEY = 'session-test-operator-key';

/** A tiny app over the session functions, with the clock given by the test. */
const app = new Hono<{ Bindings: Env }>()
  .post('/open', async (c) => {
    await openSession(c, OPERATOR_KEY, 'operator', null, Number(c.req.query('now')));
    return c.body(null, 204);
  })
  .get('/who', async (c) => c.json(await sessionCaller(c, c.req.query('key') ?? OPERATOR_KEY, Number(c.req.query('now')))));

const open = async (nowMs: number): Promise<string> =>
  (await app.request(`/open?now=${nowMs}`, { method: 'POST' }, env)).headers.get('set-cookie')!.split(';')[0]!;

const who = async (cookie: string, nowMs: number, key = OPERATOR_KEY) =>
  (await (await app.request(`/who?now=${nowMs}&key=${encodeURIComponent(key)}`, { headers: { cookie } }, env)).json()) as { tenant: string; csrfToken: string } | null;

describe('browser sessions', () => {
  const t0 = Date.UTC(2026, 0, 1);

  it('last SESSION_SECONDS, then are refused', async () => {
    const cookie = await open(t0);
    expect((await who(cookie, t0 + (SESSION_SECONDS - 1) * 1000))?.tenant).toBe('operator');
    expect(await who(cookie, t0 + SESSION_SECONDS * 1000)).toBeNull();
  });

  it('end when the operator key changes', async () => {
    const cookie = await open(t0);
    expect(await who(cookie, t0, 'another-operator-key')).toBeNull();
  });

  it('each have their own CSRF token', async () => {
    const [a, b] = [await open(t0), await open(t0 + 1000)];
    const [ta, tb] = [(await who(a, t0 + 2000))!.csrfToken, (await who(b, t0 + 2000))!.csrfToken];
    expect(ta).toMatch(/^[0-9a-f]{64}$/);
    expect(ta).not.toBe(tb);
  });
});
