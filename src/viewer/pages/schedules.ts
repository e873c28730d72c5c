// The schedules page: the caller's scheduled evaluations, when each runs next and how its last launch went;
// each can be paused, resumed or deleted, and the form below creates one.
import { html } from 'hono/html';
import type { Schedule } from '../../api/index.ts';
import { MAX_INTERVAL_MINUTES } from '../../api/index.ts';
import { csrfField, layout } from '../layout.ts';
import type { Markup, PageContext } from '../layout.ts';
import { when } from '../format.ts';
import { agentName, userName } from '../participants.ts';

const action = (ctx: PageContext, s: Schedule, verb: 'pause' | 'resume' | 'delete', label: string): Markup =>
  html`<form class="inline" method="post" action="/schedules/${encodeURIComponent(s.id)}/${verb}">${csrfField(ctx)}<button type="submit" aria-label="${label} ${s.name}">${label}</button></form>`;

const row = (ctx: PageContext) => (s: Schedule): Markup => html`<tr data-schedule="${s.id}">
  <td>${s.name}</td><td data-field="state">${s.enabled ? 'enabled' : 'paused'}</td><td>every ${s.interval_minutes} min</td>
  <td>${s.run.domain} · ${agentName(s.run)} / ${userName(s.run)} · ${s.run.num_trials} trial${s.run.num_trials === 1 ? '' : 's'}</td>
  <td>${when(s.next_run_at)}</td>
  <td>${s.last_run_id ? html`<a href="/runs/${encodeURIComponent(s.last_run_id)}">${s.last_run_id.slice(0, 12)}</a>` : html`<span class="muted">none yet</span>`}</td>
  <td class="prose">${s.last_error ? html`<span class="bad">${s.last_error}</span>` : ''}</td>
  <td>${s.enabled ? action(ctx, s, 'pause', 'Pause') : action(ctx, s, 'resume', 'Resume')} ${action(ctx, s, 'delete', 'Delete')}</td>
</tr>`;

const createForm = (ctx: PageContext, error: string | null): Markup => html`<h2 id="new-schedule">New schedule</h2>
${error ? html`<p class="error-box" role="alert">${error}</p>` : ''}
<form class="launch" method="post" action="/schedules" aria-labelledby="new-schedule">
  ${csrfField(ctx)}
  <label>Name <input name="name" required maxlength="256"></label>
  <label>Every (minutes) <input name="interval_minutes" type="number" min="1" max="${MAX_INTERVAL_MINUTES}" value="1440" required></label>
  <label>Domain <input name="domain" required maxlength="256" value="mock"></label>
  <label>Task ids (space-separated) <input name="task_ids" maxlength="4096"></label>
  <label>Trials <input name="num_trials" type="number" min="1" value="1" required></label>
  <label>Agent model <input name="llm_agent" required maxlength="256"></label>
  <label>User model <input name="llm_user" required maxlength="256"></label>
  <label class="check"><input type="checkbox" name="enabled" value="1" checked> Enabled (a new schedule runs at once)</label>
  <button type="submit">Create schedule</button>
</form>`;

export const schedulesPage = (ctx: PageContext, schedules: readonly Schedule[], error: string | null = null): Markup =>
  layout(
    ctx,
    'Schedules',
    html`<h1>Schedules</h1>
<p class="muted">The cron launches each enabled schedule when it is due; a paused one waits until it is resumed.</p>
<div class="table-wrap"><table id="schedules"><thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Interval</th><th scope="col">Run</th><th scope="col">Next run</th><th scope="col">Last run</th><th scope="col">Last error</th><th scope="col">Actions</th></tr></thead>
<tbody>${schedules.length === 0 ? html`<tr><td colspan="8" class="muted">No schedules.</td></tr>` : schedules.map(row(ctx))}</tbody></table></div>
${createForm(ctx, error)}`,
  );
