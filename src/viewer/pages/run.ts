// The run page: progress while it runs (updated live from the run's event stream), avg reward and pass^k for
// every k with its chart, the reward breakdown per component and the termination reasons, the infrastructure
// errors grouped by reason, a table of each task's trials (searchable, and filtered to failures on demand),
// tokens and cost by role (agent, user, judge, retrieval, review), for telecom the results per issue type and the solo-versus-default
// comparison, and for a run with a retrieval configuration, the runs of its domain's other configurations to
// compare it with.
import { html, raw } from 'hono/html';
import type { Run, RunList, RunUsage } from '../../api/index.ts';
import { COST_ROLE_LABELS, COST_ROLES, costText } from '../../core/metrics/role-usage.ts';
import type { RoleUsage } from '../../core/schemas/usage.ts';
import { dumpsPy } from '../../core/py/index.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import type { ModeComparison } from '../../core/metrics/mode-comparison.ts';
import { csrfField, layout } from '../layout.ts';
import type { Markup, PageContext } from '../layout.ts';
import { duration, fixed, rewardClass, signed, when } from '../format.ts';
import { agentName, userName } from '../participants.ts';
import { passHatKChart } from '../pass-k-chart.ts';
import type { RunErrorBars } from '../../core/schemas/statistics.ts';
import { runReport } from '../report.ts';
import type { RunReport, TaskRow } from '../report.ts';
import { MAX_SEARCH_LENGTH, filterTasks } from '../task-filter.ts';
import type { TaskFilter } from '../task-filter.ts';
import { liveScript } from '../live-script.ts';

export interface RunPageData {
  readonly run: Run;
  /** Its simulations; their messages are not read. */
  readonly results: Results;
  /** The telecom solo-versus-default comparison, when the other mode's run exists. */
  readonly modes: { readonly other: Run; readonly comparison: ModeComparison } | null;
  /** For a run with a retrieval configuration: the newest completed run of each other configuration of its domain. */
  readonly otherConfigs: readonly RunList['runs'][number][];
  readonly eventsUrl: string | null;
  readonly nowMs: number;
  /** Which tasks the table shows. */
  readonly filter: TaskFilter;
}

/** Seconds left at the pace so far; null before the first simulation finishes. */
export const etaSeconds = (run: Run, nowMs: number): number | null => {
  const done = run.counts.done;
  if (run.status !== 'running' || done === 0) return null;
  const elapsed = (nowMs - Date.parse(run.created_at)) / 1000;
  return (elapsed / done) * (run.counts.total - done);
};

/** Simulations left out of the metrics are never silent: how many, and where their reasons are. */
const infraNotice = (run: Run): Markup => {
  const { infra_error: infra, done } = run.counts;
  if (infra === 0) return html``;
  const all = infra === done && run.status !== 'running';
  return html`<p class="error-box" role="alert" id="infra-notice">${
    all ? `Every simulation (${infra}) ended in an infrastructure error: nothing was scored.` : `${infra} of ${done} simulations ended in an infrastructure error and are left out of the metrics.`
  } <a href="#infra-h">The reasons</a>.</p>`;
};

const progress = (ctx: PageContext, data: RunPageData): Markup => {
  const { run } = data;
  const c = run.counts;
  const eta = etaSeconds(run, data.nowMs);
  return html`<section id="progress" aria-labelledby="progress-h">
  <h2 id="progress-h">Progress</h2>
  <progress max="${Math.max(c.total, 1)}" value="${c.done}" aria-label="Simulations done">${c.done}/${c.total}</progress>
  <div class="cards">
    <div class="card">Status<b data-field="status">${run.status}</b></div>
    <div class="card">Done<b data-field="done">${c.done}/${c.total}</b></div>
    <div class="card">Reward so far<b data-field="avg-reward">${run.metrics.total_simulations > 0 ? fixed(run.metrics.avg_reward) : html`n/a <span class="muted">(nothing scored)</span>`}</b></div>
    <div class="card">Infra errors<b data-field="infra-errors">${c.infra_error}</b></div>
    <div class="card">Running / pending<b>${c.running} / ${c.pending}</b></div>
    ${eta === null ? '' : html`<div class="card">ETA<b data-field="eta">${duration(eta)}</b></div>`}
  </div>
  ${run.error ? html`<p class="error-box" role="alert">${run.error}</p>` : ''}
  ${infraNotice(run)}
  ${run.status === 'running' && ctx.canAct
    ? html`<form method="post" action="/runs/${encodeURIComponent(run.id)}/cancel">${csrfField(ctx)}<button type="submit">Cancel run</button></form>`
    : ''}
</section>`;
};

/** `± half-width (95% CI)` under a score, when its standard error can be estimated. */
const halfWidth = (bar: { readonly value: number; readonly ci_high: number | null } | undefined): Markup =>
  bar === undefined || bar.ci_high === null ? html`` : html`<span class="muted" data-field="ci">± ${fixed(bar.ci_high - bar.value)} (95% CI)</span>`;

const varianceNote = (bars: RunErrorBars): Markup =>
  html`<p class="muted" id="error-bars-note">95% confidence intervals; the average reward's standard error is clustered by task
(${bars.avg_reward.tasks} tasks, ${bars.avg_reward.simulations} simulations). Variance between tasks <span data-field="between-task">${bars.variance.between_task.toFixed(4)}</span>,
within tasks (trial to trial) <span data-field="within-task">${bars.variance.within_task.toFixed(4)}</span>; the trials of <span data-field="disagreeing-tasks">${bars.variance.disagreeing_tasks}</span> tasks disagree.</p>`;

const passHatK = (report: RunReport): Markup => html`<section aria-labelledby="passk-h">
  <h2 id="passk-h">Reward and pass^k</h2>
  <div class="cards">
    <div class="card">Average reward<b data-field="final-avg-reward">${report.metrics.total_simulations > 0 ? fixed(report.metrics.avg_reward) : html`n/a <span class="muted">(nothing scored)</span>`}</b>${halfWidth(report.errorBars?.avg_reward)}</div>
    ${report.passHatK.map(([k, v]) => html`<div class="card">pass^${k}<b data-field="pass-hat-${k}">${fixed(v)}</b>${halfWidth(report.errorBars?.pass_hat_ks.find((p) => p.k === k))}</div>`)}
  </div>
  ${report.errorBars ? varianceNote(report.errorBars) : ''}
  ${report.passHatK.length > 0
    ? passHatKChart(
        [{ label: 'this run', points: report.passHatK, errors: (report.errorBars?.pass_hat_ks ?? []).flatMap((p) => (p.ci_low === null || p.ci_high === null ? [] : [[p.k, p.ci_low, p.ci_high] as const])) }],
        'pass^k versus k, with 95% confidence intervals',
      )
    : ''}
</section>`;

const breakdown = (report: RunReport): Markup => {
  const components = Object.entries(report.metrics.reward_breakdown);
  return html`<section aria-labelledby="breakdown-h">
  <h2 id="breakdown-h">Reward components and terminations</h2>
  <div class="table-wrap"><table id="components"><thead><tr><th scope="col">Component</th><th scope="col" class="num">Mean</th></tr></thead>
  <tbody>${components.length === 0 ? html`<tr><td colspan="2" class="muted">none yet</td></tr>` : components.map(([k, v]) => html`<tr><td>${k}</td><td class="num">${fixed(v)}</td></tr>`)}</tbody></table></div>
  <div class="table-wrap"><table id="terminations"><thead><tr><th scope="col">Termination reason</th><th scope="col" class="num">Simulations</th></tr></thead>
  <tbody>${report.terminations.map(([reason, n]) => html`<tr><td>${reason}</td><td class="num">${n}</td></tr>`)}</tbody></table></div>
</section>`;
};

const simulationHref = (simulationId: string, runId: string): string =>
  `/simulations/${encodeURIComponent(simulationId)}?run=${encodeURIComponent(runId)}`;

const infraErrors = (report: RunReport, runId: string): Markup =>
  report.infraErrors.length === 0
    ? html``
    : html`<section aria-labelledby="infra-h">
  <h2 id="infra-h">Infrastructure errors</h2>
  <p class="muted">Not scored and left out of the metrics; they can be run again.</p>
  <ul id="infra-errors">${report.infraErrors.map(
    (g) => html`<li data-count="${g.simulations.length}"><b>${g.simulations.length}×</b> <span class="reason">${g.reason}</span>${g.note === null ? html`` : html`
    <p class="muted note">${g.note}</p>`}
    <details><summary>the simulations</summary>${g.simulations.map(
      (s, i) => html`${i ? ', ' : ''}<a href="${simulationHref(s.id, runId)}">${s.taskId} #${s.trial}</a>`,
    )}</details></li>`,
  )}</ul>
</section>`;

const trialCell = (runId: string) => (t: TaskRow['trials'][number]): Markup =>
  html`<a class="${rewardClass(t.reward)}" href="${simulationHref(t.simulationId, runId)}" title="trial ${t.trial}: ${t.terminationReason}">${t.reward === null ? 'infra' : fixed(t.reward, 2)}</a> `;

const taskSearch = (runId: string, filter: TaskFilter, shown: number, total: number): Markup => html`<form class="filters" method="get" action="/runs/${encodeURIComponent(runId)}#tasks-h" role="search" aria-label="Search the tasks">
  <label>Search <input type="search" name="q" value="${filter.q}" maxlength="${MAX_SEARCH_LENGTH}" placeholder="task id, termination, error"></label>
  <label class="check"><input type="checkbox" name="failures" value="1" ${filter.failuresOnly ? 'checked' : ''}> Failures only</label>
  <button type="submit">Apply</button>
  ${filter.q || filter.failuresOnly ? html`<a href="/runs/${encodeURIComponent(runId)}#tasks-h">clear</a>` : ''}
</form>
<p class="muted" aria-live="polite" data-field="tasks-shown">${shown} of ${total} task${total === 1 ? '' : 's'}</p>`;

const tasks = (report: RunReport, runId: string, filter: TaskFilter): Markup => {
  const shown = filterTasks(report.tasks, filter);
  return html`<section aria-labelledby="tasks-h">
  <h2 id="tasks-h">Tasks</h2>
  ${taskSearch(runId, filter, shown.length, report.tasks.length)}
  <div class="table-wrap"><table id="tasks"><thead><tr><th scope="col">Task</th><th scope="col" class="num">Trials</th><th scope="col" class="num">Successes</th><th scope="col" class="num">Avg reward</th><th scope="col">Reward per trial</th></tr></thead>
  <tbody>${shown.map(
    (t) => html`<tr data-task="${t.taskId}"><td>${t.taskId}</td><td class="num">${t.trials.length}</td><td class="num">${t.successes}</td><td class="num">${fixed(t.avgReward)}</td><td class="wraps">${t.trials.map(trialCell(runId))}</td></tr>`,
  )}</tbody></table></div>
</section>`;
};

const usageRow = (label: string, u: RoleUsage): Markup =>
  html`<tr data-role="${label.toLowerCase()}"><th scope="row">${label}</th><td class="num">${u.calls}</td><td class="num">${u.prompt_tokens}</td><td class="num">${u.cache_read_tokens}</td><td class="num">${u.cache_write_tokens}</td><td class="num">${u.completion_tokens}</td><td class="num">${u.reasoning_tokens}</td><td class="num">${costText(u)}</td></tr>`;

const usage = (usage: RunUsage): Markup => html`<section aria-labelledby="usage-h">
  <h2 id="usage-h">Tokens and cost</h2>
  <div class="table-wrap"><table id="usage"><caption class="muted">Every model and embeddings call of the finished simulations, by role. Cache reads and writes are part of the prompt tokens, reasoning part of the completion; a model without a known price is named as unpriced, its calls not counted in the cost.</caption>
  <thead><tr><th scope="col">Role</th><th scope="col" class="num">Calls</th><th scope="col" class="num">Prompt tokens</th><th scope="col" class="num">Cache read</th><th scope="col" class="num">Cache write</th><th scope="col" class="num">Completion tokens</th><th scope="col" class="num">Reasoning</th><th scope="col" class="num">Cost</th></tr></thead>
  <tbody>${COST_ROLES.map((role) => usageRow(COST_ROLE_LABELS[role], usage[role]))}${usageRow('Total', usage.total)}</tbody></table></div>
</section>`;

const issueTypes = (report: RunReport): Markup =>
  report.issueTypes.length === 0
    ? html``
    : html`<section aria-labelledby="issues-h">
  <h2 id="issues-h">Results per issue type</h2>
  <div class="table-wrap"><table id="issue-types"><thead><tr><th scope="col">Issue type</th><th scope="col" class="num">Tasks</th><th scope="col" class="num">Simulations</th><th scope="col" class="num">Avg reward</th><th scope="col" class="num">pass^1</th></tr></thead>
  <tbody>${report.issueTypes.map((g) => html`<tr><td>${g.group}</td><td class="num">${g.tasks}</td><td class="num">${g.simulations}</td><td class="num">${fixed(g.avgReward)}</td><td class="num">${fixed(g.pass1)}</td></tr>`)}</tbody></table></div>
</section>`;

const modes = (data: RunPageData): Markup => {
  if (!data.modes) return html``;
  const { other, comparison } = data.modes;
  return html`<section aria-labelledby="modes-h">
  <h2 id="modes-h">Solo versus default</h2>
  <p>Compared with run <a href="/runs/${encodeURIComponent(other.id)}">${other.id.slice(0, 12)}</a> (${other.config.agent}).</p>
  <div class="table-wrap"><table id="modes"><thead><tr><th scope="col">Issue type</th><th scope="col" class="num">Tasks</th><th scope="col" class="num">Default pass^1</th><th scope="col" class="num">Solo pass^1</th><th scope="col" class="num">Solo − default</th></tr></thead>
  <tbody>${[comparison.overall, ...comparison.groups].map(
    (r) => html`<tr><td>${r.group}</td><td class="num">${r.tasks}</td><td class="num">${fixed(r.defaultPass1)}</td><td class="num">${fixed(r.soloPass1)}</td><td class="num">${signed(r.userCost)}</td></tr>`,
  )}</tbody></table></div>
</section>`;
};

const otherConfigs = (data: RunPageData): Markup =>
  data.otherConfigs.length === 0
    ? html``
    : html`<section aria-labelledby="configs-h">
  <h2 id="configs-h">Other retrieval configurations</h2>
  <ul id="other-configs">${data.otherConfigs.map(
    (r) => html`<li data-retrieval-config="${r.config.retrieval_config}"><a href="/compare?a=${encodeURIComponent(data.run.id)}&amp;b=${encodeURIComponent(r.id)}">compare with ${r.config.retrieval_config}</a> (run ${r.id.slice(0, 12)}, ${agentName(r.config)})</li>`,
  )}</ul>
</section>`;

/** The configuration the results record, with its settings when any were given. */
const retrieval = (results: Results): Markup => {
  const { retrieval_config: config, retrieval_config_kwargs: kwargs } = results.info;
  if (!config) return html``;
  return html` · retrieval <b data-field="retrieval-config">${config}</b>${kwargs ? html` <code>${dumpsPy(kwargs)}</code>` : ''}`;
};

export const runBody = (ctx: PageContext, data: RunPageData): Markup => {
  const report = runReport(data.results);
  return html`<div id="run-body">
${progress(ctx, data)}
${passHatK(report)}
${breakdown(report)}
${infraErrors(report, data.run.id)}
${issueTypes(report)}
${modes(data)}
${otherConfigs(data)}
${usage(data.run.usage)}
${tasks(report, data.run.id, data.filter)}
</div>`;
};

export const runPage = (ctx: PageContext, data: RunPageData): Markup => {
  const { run } = data;
  const c = run.config;
  return layout(
    ctx,
    `Run ${run.id.slice(0, 12)}`,
    html`<h1>Run <span data-field="run-id">${run.id}</span></h1>
<p>${c.domain}${retrieval(data.results)} · agent ${agentName(c)} · user ${userName(c)} · ${c.num_trials} trial${c.num_trials === 1 ? '' : 's'} · created ${when(run.created_at)}
· <a href="/compare?a=${encodeURIComponent(run.id)}">compare with…</a></p>
${runBody(ctx, data)}
${data.eventsUrl && run.status === 'running' ? html`<script nonce="${ctx.nonce}">${raw(liveScript(data.eventsUrl))}</script>` : ''}`,
  );
};
