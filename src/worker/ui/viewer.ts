// The web viewer served by the Worker: its pages read the /v1 API in-process (the same routes, the caller's
// own session, so the tenant scoping is the API's), and sign-in exchanges an API key for a session cookie.
import type { Context, Hono as HonoApp, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { apiClient } from '../../client/index.ts';
import { API_PREFIX } from '../../api/index.ts';
import { VIEWER_PATHS, addViewerPages, viewerShell } from '../../viewer/app.ts';
import type { ViewerEnv, ViewerRequest } from '../../viewer/app.ts';
import type { ViewerSource } from '../../viewer/source.ts';
import { loginPage } from '../../viewer/pages/login.ts';
import { authFailure, callerOfKey, sameSecret } from '../api/auth.ts';
import { ApiError } from '../api/errors.ts';
import { CSRF_FIELD, CSRF_HEADER, closeSession, openSession, sessionCaller } from './browser-session.ts';

type WorkerViewerEnv = ViewerEnv<{ Bindings: Env }>;
type ApiFetch = (request: Request, env: Env, ctx: Context<WorkerViewerEnv>['executionCtx']) => Response | Promise<Response>;

const LoginFormSchema = z.object({
  api_key: z.string().trim().min(1).max(256),
  next: z.string().max(2048).catch('/'),
});

/**
 * Where sign-in may send the browser: `next` resolved against this site's origin, kept (as its path, query and
 * fragment) only when it stays on that origin. Control characters are refused: browsers drop a tab or newline
 * from a Location, so `/\t/evil.example` would become `//evil.example`, another site. The kept path is what the
 * browser resolves in turn, so it must resolve to the very same URL: the parser removes dot segments, and
 * `/.//evil.example` leaves the path `//evil.example`, which a browser reads as another host.
 */
const sameOriginPath = (next: string, origin: string): string => {
  if (/[\u0000-\u001f\u007f]/.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return '/';
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  return url.origin === origin && new URL(path, origin).href === url.href ? path : '/';
};

/** The API as the viewer's source: its own routes called in-process, authenticated as the page's request. */
const apiSource = (c: Context<WorkerViewerEnv>, fetchApi: ApiFetch, csrfToken: string | null): ViewerSource => {
  const forwarded: Record<string, string> = {};
  const cookie = c.req.header('cookie');
  if (cookie) forwarded['cookie'] = cookie;
  if (csrfToken) forwarded[CSRF_HEADER] = csrfToken;
  const client = apiClient(new URL(c.req.url).origin, undefined, {
    fetch: async (url, init) => fetchApi(new Request(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...forwarded } }), c.env, c.executionCtx),
  });
  return { ...client, actions: client, eventsUrl: (runId) => `${API_PREFIX}/runs/${encodeURIComponent(runId)}/events` };
};

const pageLogin = (c: Context<WorkerViewerEnv>, status: 200 | 401 | 429, next: string, error: string | null) =>
  c.html(loginPage({ nonce: c.get('secureHeadersNonce') ?? '', csrfToken: null, signedIn: false, canAct: false }, next, error), status);

const signIn = (app: HonoApp<WorkerViewerEnv>): void => {
  app.get('/login', (c) => pageLogin(c, 200, sameOriginPath(LoginFormSchema.shape.next.parse(c.req.query('next')), new URL(c.req.url).origin), null));
  app.post('/login', async (c) => {
    const operatorKey = c.env.API_KEY;
    if (!operatorKey) return c.redirect('/', 303);
    const form = LoginFormSchema.safeParse(await c.req.parseBody());
    const next = form.success ? sameOriginPath(form.data.next, new URL(c.req.url).origin) : '/';
    const found = form.success ? await callerOfKey(c.env, form.data.api_key, operatorKey) : null;
    if (!found) {
      const refused = await authFailure(c, new ApiError(401, 'unauthorized', 'That API key is not valid.'));
      if (refused.status === 429) {
        c.header('Retry-After', refused.headers['Retry-After'] ?? '60');
        return pageLogin(c, 429, next, 'Too many failed sign-ins; try again in a minute.');
      }
      return pageLogin(c, 401, next, 'That API key is not valid.');
    }
    await openSession(c, operatorKey, found.caller.tenant, found.keyId, Date.now());
    return c.redirect(next, 303);
  });
  app.post('/logout', (c) => {
    closeSession(c);
    return c.redirect('/login', 303);
  });
};

/** Who the page is for: with API_KEY set, a signed-in session (else the sign-in page); without, the operator. */
const gate = (fetchApi: ApiFetch): MiddlewareHandler<WorkerViewerEnv> =>
  async function viewerGate(c, next) {
    const operatorKey = c.env.API_KEY;
    if (!operatorKey) {
      c.set('viewer', { source: apiSource(c, fetchApi, null), csrfToken: null, signedIn: false } satisfies ViewerRequest);
      return next();
    }
    const session = await sessionCaller(c, operatorKey, Date.now());
    if (!session) {
      if (c.req.method !== 'GET') return c.text('Sign in first', 401);
      return c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);
    }
    // A form that changes something must carry this session's token (the page it came from put it there).
    if (c.req.method === 'POST') {
      const form = await c.req.parseBody();
      const given = typeof form[CSRF_FIELD] === 'string' ? form[CSRF_FIELD] : '';
      if (!(await sameSecret(given, session.csrfToken))) return c.text('The form is stale or forged: reload the page', 403);
    }
    c.set('viewer', { source: apiSource(c, fetchApi, session.csrfToken), csrfToken: session.csrfToken, signedIn: true });
    return next();
  };

/** The viewer's routes; `fetchApi` is the Worker's own fetch, through which the pages call /v1. */
export const viewerRoutes = (fetchApi: ApiFetch): HonoApp<WorkerViewerEnv> => {
  const app = viewerShell<{ Bindings: Env }>();
  signIn(app);
  for (const path of VIEWER_PATHS) if (path !== '/login' && path !== '/logout') app.use(path, gate(fetchApi));
  return addViewerPages(app);
};
