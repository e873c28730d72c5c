// The trajectory page: one simulation's conversation — agent, user and tool messages, each tool call with its
// arguments and result, the user's own tool calls (telecom) set apart from the agent's — and its reward_info
// explained: which action, environment assertion, communicated item or NL assertion failed and why, and the
// final DB against the gold one, changed paths only; the cost of its calls by role, where it records them. An
// infrastructure error shows its error instead: it was never graded. Tool results that are JSON are shown
// indented, and long ones start folded.
import { html } from 'hono/html';
import { dumpsPy, parsePyJson } from '../../core/py/index.ts';
import type { PyValue } from '../../core/py/index.ts';
import type { Message, ToolCall } from '../../core/schemas/message.ts';
import type { RewardInfo, SimulationRun } from '../../core/schemas/simulation.ts';
import type { DbDiff } from '../../api/index.ts';
import { layout } from '../layout.ts';
import type { Markup, PageContext } from '../layout.ts';
import { duration, fixed, rewardClass, usd } from '../format.ts';
import { infraErrorReason, isInfraError, rewardOf } from '../report.ts';
import { COST_ROLE_LABELS, COST_ROLES, costText, recordedUsage } from '../../core/metrics/role-usage.ts';

/** The simulation's cost by role (roles without calls left out), when it records them. */
const costByRole = (sim: SimulationRun): Markup => {
  const usage = recordedUsage(sim);
  if (usage === null) return html``;
  const roles = COST_ROLES.filter((role) => usage[role].calls > 0);
  return html`<p id="cost-by-role">cost by role: ${roles.map((role, i) => html`${i > 0 ? ', ' : ''}<span data-role="${role}">${COST_ROLE_LABELS[role].toLowerCase()} ${costText(usage[role])}</span>`)}</p>`;
};

const args = (value: unknown): string => dumpsPy(value as PyValue);

const toolCall = (call: ToolCall): Markup =>
  html`<div class="tool-call" data-requestor="${call.requestor}"><span class="muted">calls</span> <code>${call.name}</code><pre>${args(call.arguments)}</pre></div>`;

/** Results longer than this start folded. */
const FOLDED_RESULT_CHARS = 600;

/**
 * A JSON object or array indented; any other text as it is. Only JSON that reads back to the very same text
 * is indented, so a number JavaScript cannot hold exactly (a 20-digit id) is never shown altered.
 */
const prettyResult = (content: string): string => {
  if (!/^\s*[[{]/.test(content)) return content;
  try {
    const value = parsePyJson(content);
    const faithful = dumpsPy(value) === content || dumpsPy(value, { ensureAscii: false }) === content;
    return faithful ? dumpsPy(value, { indent: 2, ensureAscii: false }) : content;
  } catch {
    return content;
  }
};

const toolResult = (content: string): Markup => {
  const text = prettyResult(content);
  const lines = text.split('\n').length;
  return html`<details class="result"${text.length <= FOLDED_RESULT_CHARS ? html` open` : ''}><summary>${lines} line${lines === 1 ? '' : 's'}, ${content.length} characters</summary><pre>${text}</pre></details>`;
};

const verdict = (met: boolean): Markup => (met ? html`<span class="ok">✓ met</span>` : html`<span class="bad">✗ not met</span>`);

/** The reasoning a provider showed for a participant's turn, collapsed until opened. */
const reasoning = (m: Message): Markup | '' => {
  const text = m.role === 'assistant' || m.role === 'user' ? m.provider_state?.reasoning : null;
  return text ? html`<details class="reasoning"><summary>reasoning</summary><pre>${text}</pre></details>` : '';
};

const message = (m: Message, callNames: ReadonlyMap<string, string>): Markup => {
  if (m.role === 'tool') {
    const byUser = m.requestor === 'user';
    return html`<li class="${byUser ? 'user-tool' : 'tool'}${m.error ? ' error' : ''}" data-role="${byUser ? 'user-tool' : 'tool'}">
  <span class="role">${byUser ? 'user tool result' : 'tool result'}</span> <code>${callNames.get(m.id) ?? m.id}</code>${m.error ? html` <span class="bad">error</span>` : ''}
  ${toolResult(m.content ?? '')}</li>`;
  }
  const label = m.role === 'assistant' ? 'agent' : m.role;
  const calls = m.role === 'system' ? [] : (m.tool_calls ?? []);
  return html`<li class="${m.role}" data-role="${m.role}">
  <span class="role">${label}</span>${m.turn_idx === null ? '' : html` <span class="muted">turn ${m.turn_idx}</span>`}
  ${m.content ? html`<pre>${m.content}</pre>` : ''}
  ${reasoning(m)}
  ${calls.map(toolCall)}
</li>`;
};

const actionChecks = (info: RewardInfo): Markup =>
  !info.action_checks?.length
    ? html``
    : html`<h3>Actions</h3><div class="table-wrap"><table id="action-checks"><thead><tr><th scope="col">Expected action</th><th scope="col">By</th><th scope="col">Arguments</th><th scope="col">Verdict</th></tr></thead>
<tbody>${info.action_checks.map(
        (a) => html`<tr data-met="${String(a.action_match)}"><td><code>${a.action.name}</code></td><td>${a.action.requestor}</td><td class="wraps"><pre>${args(a.action.arguments)}</pre>${a.action.compare_args ? html`<span class="muted">compared: ${a.action.compare_args.join(', ')}</span>` : ''}</td>
<td class="wraps">${a.action_match ? html`<span class="ok">✓ done</span>` : html`<span class="bad">✗ no matching call in the trajectory</span>`}</td></tr>`,
      )}</tbody></table></div>`;

const envAssertions = (info: RewardInfo): Markup =>
  !info.env_assertions?.length
    ? html``
    : html`<h3>Environment assertions</h3><div class="table-wrap"><table id="env-assertions"><thead><tr><th scope="col">Assertion</th><th scope="col">Expected</th><th scope="col">Verdict</th></tr></thead>
<tbody>${info.env_assertions.map(
        (e) => html`<tr data-met="${String(e.met)}"><td class="wraps"><code>${e.env_assertion.env_type}.${e.env_assertion.func_name}</code><pre>${args(e.env_assertion.arguments)}</pre>${e.env_assertion.message ? html`<span class="muted">${e.env_assertion.message}</span>` : ''}</td>
<td>${String(e.env_assertion.assert_value)}</td><td>${verdict(e.met)}</td></tr>`,
      )}</tbody></table></div>`;

const judged = (id: string, title: string, rows: readonly { text: string; met: boolean; justification: string }[] | undefined): Markup =>
  !rows?.length
    ? html``
    : html`<h3>${title}</h3><div class="table-wrap"><table id="${id}"><thead><tr><th scope="col">Item</th><th scope="col">Verdict</th><th scope="col">Why</th></tr></thead>
<tbody>${rows.map((r) => html`<tr data-met="${String(r.met)}"><td class="prose">${r.text}</td><td>${verdict(r.met)}</td><td class="prose">${r.justification}</td></tr>`)}</tbody></table></div>`;

const dbDiffSection = (diff: DbDiff | { error: string } | null): Markup => {
  if (diff === null) return html``;
  if ('error' in diff) return html`<p class="muted" id="db-diff">The final DB cannot be compared here: ${diff.error}</p>`;
  if (diff.differences.length === 0) return diff.db_match === null ? html`` : html`<p class="ok" id="db-diff">No path of the final DB differs from the gold one.</p>`;
  return html`<h3>Final DB against gold (changed paths only)</h3>
<div class="table-wrap"><table id="db-diff"><thead><tr><th scope="col">DB</th><th scope="col">Path</th><th scope="col">Gold</th><th scope="col">Final</th></tr></thead>
<tbody>${diff.differences.map(
    (d) => html`<tr><td>${d.db}</td><td><code>${d.path.join('.')}</code></td><td><pre>${d.gold ?? '(absent)'}</pre></td><td><pre>${d.predicted ?? '(absent)'}</pre></td></tr>`,
  )}</tbody></table></div>`;
};

const infraError = (sim: SimulationRun): Markup => {
  const info = sim.info ?? {};
  const attempts = info['failed_after_attempts'];
  const type = info['error_type'];
  return html`<p class="warn">Not graded: the simulation ended in an infrastructure error${typeof attempts === 'number' ? ` after ${attempts} attempts` : ''}. It is left out of the run's metrics and can be run again.</p>
<p class="error-box" role="alert" id="infra-error">${typeof type === 'string' && type ? html`<b>${type}</b>: ` : ''}${infraErrorReason(sim)}</p>
${typeof info['error_traceback'] === 'string' && info['error_traceback'] ? html`<details><summary>Traceback</summary><pre>${info['error_traceback']}</pre></details>` : ''}`;
};

const rewardInfo = (sim: SimulationRun): Markup => {
  if (isInfraError(sim)) return infraError(sim);
  const info = sim.reward_info;
  if (!info) return html`<p class="warn">Not graded (${sim.termination_reason}).</p>`;
  const breakdown = Object.entries(info.reward_breakdown ?? {});
  return html`<p>Reward <b class="${rewardClass(rewardOf(sim))}" data-field="reward">${fixed(info.reward.value, 2)}</b>, the product of ${(info.reward_basis ?? []).join(', ') || 'nothing'}${
    breakdown.length ? html` (${breakdown.map(([k, v], i) => html`${i ? ', ' : ''}${k} ${fixed(v!.value, 2)}`)})` : ''
  }.</p>
${info.db_check
  ? html`<p id="db-check">Database: ${info.db_check.db_match ? html`<span class="ok">✓ the final database matches the gold one</span>` : html`<span class="bad">✗ the final database differs from the one the gold actions produce</span>`}</p>`
  : ''}
${actionChecks(info)}
${envAssertions(info)}
${judged('communicate-checks', 'Communicated to the user', info.communicate_checks?.map((c) => ({ text: c.info, met: c.met, justification: c.justification })))}
${judged('nl-assertions', 'Natural-language assertions', info.nl_assertions?.map((n) => ({ text: n.nl_assertion, met: n.met, justification: n.justification })))}
${info.info ? html`<details><summary>Evaluator notes</summary><pre>${args(info.info)}</pre></details>` : ''}`;
};

/** `dbDiff` is null when the DB is not compared (an infrastructure error). */
export const trajectoryPage = (ctx: PageContext, sim: SimulationRun, runId: string | null, dbDiff: DbDiff | { error: string } | null): Markup => {
  const messages = sim.messages ?? [];
  const callNames = new Map(messages.flatMap((m) => (m.role === 'assistant' || m.role === 'user' ? (m.tool_calls ?? []).map((c) => [c.id, c.name] as const) : [])));
  return layout(
    ctx,
    `Simulation ${sim.id.slice(0, 12)}`,
    html`<h1>Task <code>${sim.task_id}</code>, trial ${sim.trial ?? 0}</h1>
<p>${runId ? html`<a href="/runs/${encodeURIComponent(runId)}">← run</a> · ` : ''}simulation ${sim.id} · ${sim.termination_reason} · ${duration(sim.duration.value)} · agent cost ${usd(sim.agent_cost?.value)}</p>
${costByRole(sim)}
<section aria-labelledby="reward-h"><h2 id="reward-h">Why this reward</h2>${rewardInfo(sim)}${dbDiffSection(dbDiff)}</section>
<section aria-labelledby="conv-h"><h2 id="conv-h">Conversation (${messages.length} messages)</h2>
<ol class="messages" id="messages">${messages.map((m) => message(m, callNames))}</ol></section>`,
  );
};
