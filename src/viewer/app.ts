// The viewer's pages as a Hono app over a ViewerSource: runs, a run (live while it runs), a trajectory, the
// comparison of two runs, and — when the source is a live API — the launch form, cancel and the schedules.
// The host (the Worker, or `tau2-edge view FILE --web` in Node) supplies the source and the page context.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { csrf } from 'hono/csrf';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import type { SecureHeadersVariables } from 'hono/secure-headers';
import { z } from 'zod';
import { ApiRequestError } from '../client/index.ts';
import { RunKindSchema, RunRequestSchema, RunStatusSchema, ScheduleCreateSchema } from '../api/index.ts';
import { MAX_NAME_LENGTH } from '../core/schemas/run-config.ts';
import type { Run, RunKind, RunListFilter } from '../api/index.ts';
import { compareModes } from '../core/metrics/mode-comparison.ts';
import { isSoloAgent } from '../core/schemas/episode.ts';
import { issueTypeOf } from '../../domains/issue-types.ts';
import type { PageContext } from './layout.ts';
import type { ViewerSource } from './source.ts';
import { runsPage } from './pages/runs.ts';
import { RUNS_LISTED } from './pages/runs.ts';
import { runPage } from './pages/run.ts';
import type { RunPageData } from './pages/run.ts';
import { trajectoryPage } from './pages/trajectory.ts';
import { comparePage, runLabel } from './pages/compare.ts';
import { schedulesPage } from './pages/schedules.ts';
import { messagePage } from './pages/message.ts';
import { compareRuns } from './compare.ts';
import { pairedComparison } from '../core/metrics/paired-comparison.ts';
import { LaunchFormSchema, ScheduleFormSchema } from './launch-form.ts';
import { isInfraError } from './report.ts';
import { TaskFilterSchema } from './task-filter.ts';

/** What the host knows about the request: where data comes from and who the page is for. */
export interface ViewerRequest {
  readonly source: ViewerSource;
  readonly csrfToken: string | null;
  readonly signedIn: boolean;
}

export type ViewerEnv<E extends object = object> = E & {
  Variables: SecureHeadersVariables & { viewer: ViewerRequest };
};

/** Runs the filter and the compare picker offer: the API's own maximum page. */
const RUNS_SHOWN = 200;
const MAX_FORM_BYTES = 64 * 1024;
const QueryIdSchema = z.string().min(1).max(MAX_NAME_LENGTH).optional();
/** Runs the compare page sets against A besides B. */
const MAX_FURTHER_RUNS = 3;
/** An empty field (the filter's "any") is no filter. */
const optionalName = z.string().max(MAX_NAME_LENGTH).optional().transform((v) => v || undefined);
const RunsFilterSchema = z.object({
  domain: optionalName,
  status: z.union([RunStatusSchema, z.literal('')]).optional().transform((v) => v || undefined),
  model: optionalName,
  retrieval_config: optionalName,
  /** The runs page shows one kind at a time, evaluations unless the other tab is chosen. */
  kind: RunKindSchema.catch('evaluation'),
});

/** Every path the viewer answers; its middleware is scoped to these, so a host's other routes (the API) keep theirs. */
export const VIEWER_PATHS = ['/', '/runs', '/runs/*', '/simulations/*', '/compare', '/schedules', '/schedules/*', '/login', '/logout'] as const;

/** `viewer` is unset before the host's middleware has run (e.g. an error on the sign-in page). */
const contextOf = (viewer: ViewerRequest | undefined, nonce: string | undefined): PageContext => ({
  nonce: nonce ?? '',
  csrfToken: viewer?.csrfToken ?? null,
  signedIn: viewer?.signedIn ?? false,
  canAct: (viewer?.source.actions ?? null) !== null,
});

/** Each listed run with its metrics (pass^1 and cost are not in the listing). */
const runsWithMetrics = async (source: ViewerSource, filter: RunListFilter = {}): Promise<Run[]> =>
  Promise.all((await source.listRuns(RUNS_LISTED, filter)).map((r) => source.run(r.id)));

/** For telecom: the other mode's newest finished run of the same domain, compared with this one. */
const modeComparison = async (source: ViewerSource, run: Run, data: Pick<RunPageData, 'results'>): Promise<RunPageData['modes']> => {
  const domain = run.config.domain;
  const typeOf = issueTypeOf(domain);
  if (!typeOf || run.status === 'running') return null;
  const solo = isSoloAgent(run.config.agent);
  const other = (await source.listRuns(RUNS_SHOWN)).find(
    (r) => r.id !== run.id && r.config.domain === domain && r.status === 'completed' && isSoloAgent(r.config.agent) !== solo,
  );
  if (!other) return null;
  const otherResults = await source.results(other.id, { messages: false });
  const [defaultRun, soloRun] = solo ? [otherResults, data.results] : [data.results, otherResults];
  try {
    return { other: await source.run(other.id), comparison: compareModes(defaultRun, soloRun, typeOf) };
  } catch {
    // No task evaluated in both modes: nothing to compare.
    return null;
  }
};

/** For a run with a retrieval configuration: the newest completed run of each other configuration of its domain. */
const otherConfigs = async (source: ViewerSource, run: Run, config: string | null): Promise<RunPageData['otherConfigs']> => {
  if (!config) return [];
  const newest = new Map<string, RunPageData['otherConfigs'][number]>();
  for (const other of await source.listRuns(RUNS_SHOWN, { domain: run.config.domain, status: 'completed' })) {
    const name = other.config.retrieval_config;
    if (name && name !== config && !newest.has(name)) newest.set(name, other);
  }
  return [...newest.values()];
};

/** The runs page again, with why the launch was refused. */
const launchRefused = async (source: ViewerSource, ctx: PageContext, message: string) => {
  const filter = { kind: 'evaluation' } as const;
  const shown = await runsWithMetrics(source, filter);
  return runsPage(ctx, shown, shown, filter, message);
};

/** A form's zod issues as one line naming each field. */
const issuesText = (issues: readonly z.core.$ZodIssue[]): string => issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`).join('; ');

const formFields = async (c: Context): Promise<Record<string, string>> => {
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
};

/**
 * The viewer's HTTP shell: CSP (inline style and script only under the response's nonce) and other security
 * headers, same-origin and size checks on every form post, and error pages. A host adds its own routes (e.g.
 * sign-in) and its middleware setting `viewer`, then `addViewerPages`.
 */
export const viewerShell = <E extends object>(): Hono<ViewerEnv<E>> => {
  const app = new Hono<ViewerEnv<E>>();
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: [NONCE],
      styleSrc: [NONCE],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    referrerPolicy: 'same-origin',
  });
  // Forms post only from this origin (Origin / Sec-Fetch-Site), and never more than a form's worth.
  for (const path of VIEWER_PATHS) {
    app.use(path, headers);
    app.on('POST', path, csrf(), bodyLimit({ maxSize: MAX_FORM_BYTES }));
  }
  app.onError((error, c) => {
    const ctx = contextOf(c.get('viewer'), c.get('secureHeadersNonce'));
    if (error instanceof ApiRequestError) {
      const status = error.status === 404 ? 404 : error.status >= 500 ? 502 : 400;
      return c.html(messagePage(ctx, status === 404 ? 'Not found' : 'The request failed', error.message), status);
    }
    // The form checks' refusals (403 from another origin, 413 over the size) keep their status.
    if (error instanceof HTTPException) return c.html(messagePage(ctx, 'Refused', error.message || 'The request was refused.'), error.status);
    console.error('viewer error', error);
    return c.html(messagePage(ctx, 'Something went wrong', 'The page could not be rendered.'), 500);
  });
  return app;
};

/** The pages, on a shell whose requests have `viewer` set. */
export const addViewerPages = <E extends object>(app: Hono<ViewerEnv<E>>): Hono<ViewerEnv<E>> => {
  const pageContext = (c: Context<ViewerEnv<E>>): PageContext => contextOf(c.get('viewer'), c.get('secureHeadersNonce'));

  app.get('/', async (c) => {
    const parsed = RunsFilterSchema.safeParse(c.req.query());
    const filter: RunListFilter & { kind: RunKind } = parsed.success ? parsed.data : { kind: 'evaluation' };
    const { source } = c.get('viewer');
    // The filter's choices come from every recent run of the kind shown; the table from the runs the API selects.
    const [all, shown] = await Promise.all([source.listRuns(RUNS_SHOWN, { kind: filter.kind }), runsWithMetrics(source, filter)]);
    return c.html(runsPage(pageContext(c), all, shown, filter));
  });

  // The runs are listed at the root; /runs is where the launch form posts.
  app.get('/runs', (c) => c.redirect('/', 303));

  app.get('/runs/:id', async (c) => {
    const { source } = c.get('viewer');
    const id = c.req.param('id');
    // The page needs no message: the light results (the run carries its usage by role).
    const [run, results] = await Promise.all([source.run(id), source.results(id, { messages: false })]);
    const filter = TaskFilterSchema.parse(c.req.query());
    const data: RunPageData = { run, results, modes: null, otherConfigs: [], eventsUrl: source.eventsUrl(id), nowMs: Date.now(), filter };
    const [modes, others] = await Promise.all([modeComparison(source, run, data), otherConfigs(source, run, results.info.retrieval_config ?? null)]);
    return c.html(runPage(pageContext(c), { ...data, modes, otherConfigs: others }));
  });

  app.get('/simulations/:id', async (c) => {
    const run = QueryIdSchema.safeParse(c.req.query('run'));
    const { source } = c.get('viewer');
    const sim = await source.simulation(c.req.param('id'));
    // The DB comparison needs the domain's data; the conversation is shown without it. An infrastructure error
    // was never graded: its DB is not compared.
    const dbDiff = isInfraError(sim)
      ? null
      : await source.dbDiff(sim.id).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
    return c.html(trajectoryPage(pageContext(c), sim, run.success ? (run.data ?? null) : null, dbDiff));
  });

  app.get('/compare', async (c) => {
    const { source } = c.get('viewer');
    const a = QueryIdSchema.safeParse(c.req.query('a') || undefined);
    const b = QueryIdSchema.safeParse(c.req.query('b') || undefined);
    const ids = { a: a.success ? a.data : undefined, b: b.success ? b.data : undefined };
    const runs = await source.listRuns(RUNS_SHOWN);
    if (ids.a === undefined || ids.b === undefined) return c.html(comparePage(pageContext(c), { runs, ...ids }, null));
    const light = { messages: false };
    // Further runs (`&b=…` repeated) are each compared with A, a bounded few.
    const further = (c.req.queries('b') ?? []).slice(1).flatMap((id) => (QueryIdSchema.safeParse(id).data ?? [])).slice(0, MAX_FURTHER_RUNS);
    const [runA, runB, resultsA, resultsB] = await Promise.all([source.run(ids.a), source.run(ids.b), source.results(ids.a, light), source.results(ids.b, light)]);
    const more = await Promise.all(
      further.map(async (id) => {
        const [run, results] = await Promise.all([source.run(id), source.results(id, light)]);
        return { label: runLabel(run), paired: pairedComparison(resultsA.simulations, results.simulations) };
      }),
    );
    const view = {
      labels: { a: runLabel(runA), b: runLabel(runB) },
      configs: { a: resultsA.info.retrieval_config ?? null, b: resultsB.info.retrieval_config ?? null },
      comparison: compareRuns(resultsA, resultsB),
      more,
    };
    return c.html(comparePage(pageContext(c), { runs, ...ids }, view));
  });

  app.post('/runs', async (c) => {
    const { actions } = c.get('viewer').source;
    if (!actions) return c.html(messagePage(pageContext(c), 'Read only', 'This viewer shows a results file; it cannot launch runs.'), 405);
    const form = LaunchFormSchema.safeParse(await formFields(c));
    const config = form.success ? RunRequestSchema.safeParse(form.data) : form;
    if (!config.success) return c.html(await launchRefused(c.get('viewer').source, pageContext(c), issuesText(config.error.issues)), 400);
    try {
      const created = await actions.createRun(config.data);
      return c.redirect(`/runs/${encodeURIComponent(created.run_id)}`, 303);
    } catch (error) {
      if (!(error instanceof ApiRequestError) || error.status >= 500) throw error;
      return c.html(await launchRefused(c.get('viewer').source, pageContext(c), error.message), 400);
    }
  });

  app.post('/runs/:id/cancel', async (c) => {
    const { actions } = c.get('viewer').source;
    if (!actions) return c.html(messagePage(pageContext(c), 'Read only', 'This viewer shows a results file; it cannot cancel runs.'), 405);
    const run = await actions.cancel(c.req.param('id'));
    return c.redirect(`/runs/${encodeURIComponent(run.id)}`, 303);
  });

  app.get('/schedules', async (c) => {
    const { actions } = c.get('viewer').source;
    if (!actions) return c.html(messagePage(pageContext(c), 'Not available', 'A results file has no schedules.'), 404);
    return c.html(schedulesPage(pageContext(c), await actions.listSchedules()));
  });

  app.post('/schedules', async (c) => {
    const { actions } = c.get('viewer').source;
    if (!actions) return c.html(messagePage(pageContext(c), 'Read only', 'This viewer shows a results file; it has no schedules.'), 405);
    const refused = async (message: string) => c.html(schedulesPage(pageContext(c), await actions.listSchedules(), message), 400);
    const form = ScheduleFormSchema.safeParse(await formFields(c));
    const schedule = form.success ? ScheduleCreateSchema.safeParse(form.data) : form;
    if (!schedule.success) return refused(issuesText(schedule.error.issues));
    try {
      await actions.createSchedule(schedule.data);
    } catch (error) {
      if (!(error instanceof ApiRequestError) || error.status >= 500) throw error;
      return refused(error.message);
    }
    return c.redirect('/schedules', 303);
  });

  // Pause, resume and delete: the schedule's own forms on the schedules page.
  app.post('/schedules/:id/:verb{pause|resume|delete}', async (c) => {
    const { actions } = c.get('viewer').source;
    if (!actions) return c.html(messagePage(pageContext(c), 'Read only', 'This viewer shows a results file; it has no schedules.'), 405);
    const id = c.req.param('id');
    const verb = c.req.param('verb');
    if (verb === 'delete') await actions.deleteSchedule(id);
    else await actions.updateSchedule(id, { enabled: verb === 'resume' });
    return c.redirect('/schedules', 303);
  });

  return app;
};
