// The runs page: every run of the caller, newest first, with its status, domain, retrieval configuration, models,
// pass^1, cost and date; filters by domain, status, model and retrieval configuration; and, on a live API, the
// form that launches a run.
import { html } from 'hono/html';
import type { Run, RunKind, RunList, RunListFilter } from '../../api/index.ts';

type RunListing = RunList['runs'][number];
/** The filter of the list shown: always one kind of runs. */
type ShownFilter = RunListFilter & { readonly kind: RunKind };
import { csrfField, layout } from '../layout.ts';
import type { Markup, PageContext } from '../layout.ts';
import { fixed, usd, when } from '../format.ts';
import { agentName, playingModels, userName } from '../participants.ts';

/** Runs the table shows, each read with its metrics (one API call each): the API's default page. */
export const RUNS_LISTED = 50;

const options = (values: readonly string[], selected: string | undefined): Markup =>
  html`<option value="">any</option>${values.map((v) => html`<option value="${v}" ${v === selected ? 'selected' : ''}>${v}</option>`)}`;

const distinct = (values: readonly string[]): string[] => [...new Set(values)].sort();

/** The runs page's two lists: the evaluations, and the runs whose agent or user the caller played. */
const KINDS: readonly { kind: RunKind; label: string }[] = [
  { kind: 'evaluation', label: 'Evaluations' },
  { kind: 'external', label: 'Agent-driven and OpenEnv' },
];

const tabs = (shown: RunKind): Markup => html`<nav class="tabs" aria-label="Kinds of runs">${KINDS.map(
  ({ kind, label }) => html`<a href="/?kind=${kind}" data-kind="${kind}" ${kind === shown ? html`aria-current="page"` : ''}>${label}</a>`,
)}</nav>`;

const filters = (all: readonly RunListing[], filter: ShownFilter): Markup => html`<form class="filters" method="get" action="/" aria-label="Filter runs">
  <input type="hidden" name="kind" value="${filter.kind}">
  <label>Domain <select name="domain">${options(distinct(all.map((r) => r.config.domain)), filter.domain)}</select></label>
  <label>Status <select name="status">${options(['running', 'completed', 'cancelled', 'failed'], filter.status)}</select></label>
  <label>Model <select name="model">${options(distinct(all.flatMap((r) => playingModels(r.config))), filter.model)}</select></label>
  <label>Retrieval config <select name="retrieval_config">${options(distinct(all.flatMap((r) => r.config.retrieval_config ?? [])), filter.retrieval_config)}</select></label>
  <button type="submit">Filter</button>
</form>`;

const row = (run: Run): Markup => {
  const c = run.config;
  const pass1 = run.metrics['pass_hat_1'];
  return html`<tr data-run="${run.id}" data-status="${run.status}" data-retrieval-config="${c.retrieval_config ?? ''}">
  <td><a href="/runs/${encodeURIComponent(run.id)}">${run.id.slice(0, 12)}</a></td>
  <td>${run.status}</td>
  <td>${c.domain}</td>
  <td>${c.retrieval_config ?? '—'}</td>
  <td>${agentName(c)}</td>
  <td>${userName(c)}</td>
  <td class="num">${run.counts.done}/${run.counts.total}</td>
  <td class="num">${fixed(pass1)}</td>
  <td class="num">${usd(run.metrics.total_simulations > 0 ? run.metrics.avg_agent_cost * run.metrics.total_simulations : null)}</td>
  <td>${when(run.created_at)}</td>
</tr>`;
};

const launchForm = (ctx: PageContext, error: string | null): Markup => html`<h2 id="launch">Launch a run</h2>
${error ? html`<p class="error-box" role="alert">${error}</p>` : ''}
<form class="launch" method="post" action="/runs" aria-labelledby="launch">
  ${csrfField(ctx)}
  <label>Domain <input name="domain" required maxlength="256" value="mock"></label>
  <label>Task ids (space-separated) <input name="task_ids" maxlength="4096"></label>
  <label>Task split <input name="task_split_name" maxlength="256" value="base"></label>
  <label>Number of tasks <input name="num_tasks" type="number" min="1"></label>
  <label>Trials <input name="num_trials" type="number" min="1" value="1" required></label>
  <label>Agent model <input name="llm_agent" required maxlength="256"></label>
  <label>User model <input name="llm_user" required maxlength="256"></label>
  <label>Concurrency <input name="max_concurrency" type="number" min="1" value="3" required></label>
  <button type="submit">Launch</button>
</form>`;

/** `all`: the recent runs, whose domains and models the filter offers; `shown`: the runs the filter selects. */
export const runsPage = (ctx: PageContext, all: readonly RunListing[], shown: readonly Run[], filter: ShownFilter, launchError: string | null = null): Markup => {
  return layout(
    ctx,
    'Runs',
    html`<h1>Runs</h1>
${tabs(filter.kind)}
${filters(all, filter)}
<p class="muted" aria-live="polite">${shown.length} run${shown.length === 1 ? '' : 's'}${Object.entries(filter).some(([key, value]) => key !== 'kind' && value) ? ' match the filter' : ''}</p>
<div class="table-wrap"><table id="runs">
  <caption class="muted">Newest first, at most ${RUNS_LISTED} (filter to find older ones); cost is the agent's total over the finished simulations.</caption>
  <thead><tr><th scope="col">Run</th><th scope="col">Status</th><th scope="col">Domain</th><th scope="col">Retrieval</th><th scope="col">Agent</th><th scope="col">User</th>
  <th scope="col" class="num">Done</th><th scope="col" class="num">pass^1</th><th scope="col" class="num">Cost</th><th scope="col">Date</th></tr></thead>
  <tbody>${shown.map(row)}</tbody>
</table></div>
${ctx.canAct ? launchForm(ctx, launchError) : ''}`,
  );
};
