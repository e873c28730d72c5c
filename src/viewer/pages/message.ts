// A page with one message: not found, a failure of the source, or a page that needs a live API.
import { html } from 'hono/html';
import { layout } from '../layout.ts';
import type { Markup, PageContext } from '../layout.ts';

export const messagePage = (ctx: PageContext, title: string, text: string): Markup =>
  layout(ctx, title, html`<h1>${title}</h1><p class="error-box" role="alert">${text}</p><p><a href="/">All runs</a></p>`);
