// The sign-in page: the API key, exchanged once for a session cookie.
import { html } from 'hono/html';
import { layout } from '../layout.ts';
import type { Markup, PageContext } from '../layout.ts';

export const loginPage = (ctx: PageContext, next: string, error: string | null): Markup =>
  layout(
    ctx,
    'Sign in',
    html`<h1>Sign in</h1>
${error ? html`<p class="error-box" role="alert">${error}</p>` : ''}
<form class="launch" method="post" action="/login">
  <input type="hidden" name="next" value="${next}">
  <label>API key <input name="api_key" type="password" autocomplete="current-password" required maxlength="256" autofocus></label>
  <button type="submit">Sign in</button>
</form>
<p class="muted">The key is checked once and never stored in the browser; the session lasts 12 hours.</p>`,
  );
