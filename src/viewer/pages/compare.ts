// The compare page: pick two runs (each named with its retrieval configuration, if any); then both runs'
// configurations, the headline and both pass^k curves on the tasks both runs scored (with the tasks only one
// scored listed apart), whether B differs from A beyond noise (the paired difference with its CI drawn, the p-value,
// the tasks that flipped), and each task's delta.
import { html } from 'hono/html';
import type { Run, RunList } from '../../api/index.ts';
import { layout } from '../layout.ts';
import type { Markup, PageContext } from '../layout.ts';
import { fixed, signed, when } from '../format.ts';
import { agentName } from '../participants.ts';
import { passHatKChart } from '../pass-k-chart.ts';
import type { RunComparison, TaskDelta } from '../compare.ts';
import type { TaskRow } from '../report.ts';
import { differenceChart } from '../difference-chart.ts';
import type { PairedComparison } from '../../core/schemas/statistics.ts';

export interface ComparePick {
  readonly runs: readonly RunList['runs'][number][];
  readonly a: string | undefined;
  readonly b: string | undefined;
}

/** A run as pickers and headings name it: its id and date first, so runs of one configuration tell apart. */
export const runLabel = (run: Pick<Run, 'id' | 'config' | 'created_at'>): string =>
  [run.id.slice(0, 12), when(run.created_at), run.config.domain, ...(run.config.retrieval_config ? [run.config.retrieval_config] : []), agentName(run.config)].join(' · ');

const picker = (pick: ComparePick): Markup => html`<form class="filters" method="get" action="/compare" aria-label="Runs to compare">
  ${(['a', 'b'] as const).map(
    (side) => html`<label>Run ${side.toUpperCase()} <select name="${side}" required><option value="">choose…</option>${pick.runs.map(
      (r) => html`<option value="${r.id}" ${r.id === pick[side] ? 'selected' : ''}>${runLabel(r)}</option>`,
    )}</select></label>`,
  )}
  <button type="submit">Compare</button>
</form>`;

const successes = (row: TaskRow | null): string => (row === null ? '—' : `${row.successes}/${row.trials.length}`);

const deltaRow = (t: TaskDelta): Markup =>
  html`<tr data-task="${t.taskId}"><td>${t.taskId}</td><td class="num">${fixed(t.a?.avgReward)}</td><td class="num">${fixed(t.b?.avgReward)}</td>
<td class="num ${t.delta === null ? '' : t.delta > 0 ? 'ok' : t.delta < 0 ? 'bad' : ''}" data-field="delta">${t.delta === null ? 'n/a' : signed(t.delta)}</td>
<td class="num">${successes(t.a)}</td><td class="num">${successes(t.b)}</td></tr>`;

export interface CompareView {
  readonly labels: { readonly a: string; readonly b: string };
  /** Each run's retrieval configuration as its results record it (null: none). */
  readonly configs: { readonly a: string | null; readonly b: string | null };
  readonly comparison: RunComparison;
  /** Further runs, each paired with A on the tasks both evaluated. */
  readonly more: readonly { readonly label: string; readonly paired: PairedComparison }[];
}

const taskList = (id: string, label: string, tasks: readonly string[]): Markup =>
  tasks.length === 0
    ? html``
    : html`<details id="${id}"><summary>${tasks.length} task${tasks.length === 1 ? '' : 's'} only ${label} scored: left out of the headline</summary>
<p class="task-list">${tasks.map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`)}</p></details>`;

const headline = (view: CompareView): Markup => {
  const { a, b, shared, onlyA, onlyB } = view.comparison;
  const delta = a.avgReward === null || b.avgReward === null ? null : b.avgReward - a.avgReward;
  return html`<p id="shared-tasks">${
    shared.length === 0
      ? html`<span class="warn">The two runs scored no task in common: there is nothing to compare.</span>`
      : html`On the <b data-field="shared-count">${shared.length}</b> task${shared.length === 1 ? '' : 's'} both runs scored (A scored ${a.scoredTasks}, B ${b.scoredTasks}).`
  }</p>
<div class="cards">
  <div class="card">Avg reward A<b data-field="avg-a">${fixed(a.avgReward)}</b></div>
  <div class="card">Avg reward B<b data-field="avg-b">${fixed(b.avgReward)}</b></div>
  <div class="card">B − A<b data-field="avg-delta">${delta === null ? 'n/a' : signed(delta)}</b></div>
  ${view.configs.a || view.configs.b
    ? html`<div class="card">Retrieval config A<b data-field="config-a">${view.configs.a ?? 'none'}</b></div>
  <div class="card">Retrieval config B<b data-field="config-b">${view.configs.b ?? 'none'}</b></div>`
    : ''}
</div>
${taskList('only-a', 'A', onlyA)}
${taskList('only-b', 'B', onlyB)}`;
};

const changedList = (id: string, title: string, tasks: PairedComparison['improved']): Markup =>
  html`<p id="${id}"><b>${title}</b> (${tasks.length}): ${tasks.length === 0 ? 'none' : tasks.map((t, i) => html`${i ? ', ' : ''}<code>${t.task_id}</code> ${signed(t.difference)}`)}</p>`;

/** Whether B differs from A beyond noise: the paired difference, its CI drawn, the p-value, and the flipped tasks. */
const pairedSection = (paired: PairedComparison): Markup => {
  const { difference: d, ci_low: low, ci_high: high } = paired;
  return html`<section id="paired" aria-labelledby="paired-h">
<h2 id="paired-h">Is B better than A?</h2>
<div class="cards">
  <div class="card">B − A, paired by task<b data-field="paired-difference">${d === null ? 'n/a' : signed(d)}</b>${low === null || high === null ? '' : html`<span class="muted" data-field="paired-ci">95% CI ${signed(low)} to ${signed(high)}</span>`}</div>
  <div class="card">p-value<b data-field="p-value">${fixed(paired.p_value)}</b><span class="muted">paired t-test</span></div>
  <div class="card">Resolved<b data-field="resolved" class="${paired.resolved ? 'ok' : ''}">${paired.resolved ? 'yes' : 'no'}</b><span class="muted">${paired.resolved ? 'the CI excludes 0' : 'the CI includes 0'}</span></div>
  <div class="card">Detectable difference<b data-field="mdd">${fixed(paired.mdd)}</b><span class="muted">80% power, α = 0.05</span></div>
</div>
${d === null || low === null || high === null ? html`<p class="muted">Fewer than two shared tasks: no confidence interval.</p>` : differenceChart(d, low, high, 'B − A, paired by task')}
${changedList('improved', 'B passes every trial, A none', paired.improved)}
${changedList('regressed', 'A passes every trial, B none', paired.regressed)}
</section>`;
};

const moreRuns = (view: CompareView): Markup =>
  view.more.length === 0
    ? html``
    : html`<section id="more-runs" aria-labelledby="more-h">
<h2 id="more-h">Further runs against A</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Run</th><th scope="col" class="num">Shared tasks</th><th scope="col" class="num">Run − A, paired</th><th scope="col" class="num">95% CI</th><th scope="col" class="num">p-value</th><th scope="col">Resolved</th></tr></thead>
<tbody>${view.more.map(
      ({ label, paired: p }) => html`<tr data-run="${label}"><td>${label}</td><td class="num">${p.shared_tasks}</td><td class="num" data-field="difference">${p.difference === null ? 'n/a' : signed(p.difference)}</td>
<td class="num">${p.ci_low === null || p.ci_high === null ? 'n/a' : html`${signed(p.ci_low)} to ${signed(p.ci_high)}`}</td><td class="num" data-field="p-value">${fixed(p.p_value)}</td><td data-field="resolved">${p.resolved ? 'yes' : 'no'}</td></tr>`,
    )}</tbody></table></div>
</section>`;

export const comparePage = (ctx: PageContext, pick: ComparePick | null, view: CompareView | null): Markup =>
  layout(
    ctx,
    'Compare',
    html`<h1>Compare two runs</h1>
${pick ? picker(pick) : ''}
${view
  ? html`<p class="labels">A: ${view.labels.a}<br>B: ${view.labels.b}</p>
${headline(view)}
${view.comparison.shared.length === 0 ? '' : pairedSection(view.comparison.paired)}
${moreRuns(view)}
${view.comparison.shared.length === 0
  ? ''
  : passHatKChart(
      [
        { label: `A ${view.labels.a}`, points: view.comparison.a.passHatK },
        { label: `B ${view.labels.b}`, points: view.comparison.b.passHatK },
      ],
      'pass^k versus k on the shared tasks, both runs',
    )}
<h2>Per task</h2>
<div class="table-wrap"><table id="deltas"><thead><tr><th scope="col">Task</th><th scope="col" class="num">Avg reward A</th><th scope="col" class="num">Avg reward B</th><th scope="col" class="num">B − A</th><th scope="col" class="num">Successes A</th><th scope="col" class="num">Successes B</th></tr></thead>
<tbody>${view.comparison.tasks.map(deltaRow)}</tbody></table></div>`
  : ''}`,
  );
