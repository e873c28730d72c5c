// The schedules page: the caller's scheduled evaluations, when each runs next, and how its last launch went.
import { html } from 'hono/html';
import type { Schedule } from '../../core/schemas/api.ts';
import { layout } from '../layout.ts';
import type { Markup, PageContext } from '../layout.ts';
import { when } from '../format.ts';

const row = (s: Schedule): Markup => html`<tr data-schedule="${s.id}">
  <td>${s.name}</td><td>${s.enabled ? 'enabled' : 'paused'}</td><td>every ${s.interval_minutes} min</td>
  <td>${s.run.domain} · ${s.run.llm_agent} / ${s.run.llm_user} · ${s.run.num_trials} trial${s.run.num_trials === 1 ? '' : 's'}</td>
  <td>${when(s.next_run_at)}</td>
  <td>${s.last_run_id ? html`<a href="/runs/${encodeURIComponent(s.last_run_id)}">${s.last_run_id.slice(0, 12)}</a>` : html`<span class="muted">none yet</span>`}</td>
  <td>${s.last_error ? html`<span class="bad">${s.last_error}</span>` : ''}</td>
</tr>`;

export const schedulesPage = (ctx: PageContext, schedules: readonly Schedule[]): Markup =>
  layout(
    ctx,
    'Schedules',
    html`<h1>Schedules</h1>
<p class="muted">Created and changed through the API (POST /v1/schedules); the cron launches each when due.</p>
<div class="table-wrap"><table id="schedules"><thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Interval</th><th scope="col">Run</th><th scope="col">Next run</th><th scope="col">Last run</th><th scope="col">Last error</th></tr></thead>
<tbody>${schedules.length === 0 ? html`<tr><td colspan="7" class="muted">No schedules.</td></tr>` : schedules.map(row)}</tbody></table></div>`,
  );
