// The page shell every viewer page shares: document head, navigation, the stylesheet, and the session's logout
// form. Styles are inline under the page's CSP nonce, so the viewer is one response per page, no asset files.
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

export interface PageContext {
  /** The CSP nonce of this response's inline style and script. */
  readonly nonce: string;
  /** The session's CSRF token for forms; null when the source needs none (no API key configured, offline file). */
  readonly csrfToken: string | null;
  /** A browser session that can be closed. */
  readonly signedIn: boolean;
  /** Whether runs can be launched, cancelled and scheduled (a live API, not a file). */
  readonly canAct: boolean;
}

const STYLE = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #4d4d4d; --line: #c8c8c8; --bg: #ffffff; --band: #f2f4f7; --accent: #1f5fbf;
  --ok: #1e6b2e; --bad: #a4161a; --warn: #7a4b00; font-family: system-ui, sans-serif; line-height: 1.45; }
body { margin: 0; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; padding: .6rem 1rem; background: #13294b; }
header a, header button { color: #ffffff; font-weight: 600; }
header nav { display: flex; gap: 1rem; flex-wrap: wrap; }
header form { margin-left: auto; }
main { padding: 1rem; max-width: 80rem; margin: 0 auto; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid #f0a202; outline-offset: 2px; }
h1 { font-size: 1.4rem; margin: .2rem 0 .8rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; }
.muted { color: var(--muted); }
.ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.table-wrap { overflow-x: auto; }
nav.tabs { display: flex; flex-wrap: wrap; gap: .25rem; margin-bottom: .8rem; border-bottom: 1px solid var(--line); }
nav.tabs a { padding: .35rem .7rem; text-decoration: none; border: 1px solid transparent; border-bottom: none; border-radius: 4px 4px 0 0; }
nav.tabs a[aria-current="page"] { border-color: var(--line); background: var(--band); color: var(--fg); font-weight: 600; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; white-space: nowrap; }
td.wraps { white-space: normal; }
td.prose { white-space: normal; min-width: 14rem; }
td pre { white-space: pre; overflow-wrap: normal; }
th { background: var(--band); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr { content-visibility: auto; contain-intrinsic-size: auto 2rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .6rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .7rem; }
.card b { display: block; font-size: 1.25rem; }
form.inline { display: inline; }
form.filters, form.launch { display: flex; flex-wrap: wrap; gap: .6rem 1rem; align-items: end; }
label { display: flex; flex-direction: column; font-size: .85rem; gap: .15rem; min-width: 0; }
label.check { flex-direction: row; align-items: center; gap: .35rem; }
input, select { max-width: 100%; box-sizing: border-box; }
code { overflow-wrap: anywhere; }
td code { overflow-wrap: normal; }
p, li, summary { overflow-wrap: anywhere; }
details.result > summary { cursor: pointer; font-size: .8rem; color: var(--muted); }
input, select, button { font: inherit; padding: .3rem .45rem; }
button { cursor: pointer; border: 1px solid #13294b; background: #13294b; color: #fff; border-radius: 4px; }
header button { background: transparent; border-color: #ffffff; }
.chart svg { width: 100%; max-width: 32rem; height: auto; }
.chart .tick line { stroke: #dddddd; } .chart text { font-size: 11px; fill: var(--muted); }
.legend { margin-right: 1rem; } .swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: middle; }
.c0 { background: #1f5fbf; } .c1 { background: #b3261e; } .c2 { background: #2e7d32; } .c3 { background: #6a1b9a; }
progress { width: 100%; height: 1rem; margin-bottom: .6rem; }
ol.messages { list-style: none; padding: 0; }
ol.messages > li { border-left: 4px solid var(--line); padding: .4rem .7rem; margin: .5rem 0; background: var(--band); overflow-wrap: anywhere; }
li.assistant { border-color: #1f5fbf; } li.user { border-color: #2e7d32; } li.tool { border-color: #8a8a8a; margin-left: 1.5rem; }
li.user-tool { border-color: #6a1b9a; margin-left: 1.5rem; background: #f5effa; }
li.tool.error { border-color: var(--bad); }
.role { font-weight: 700; font-size: .85rem; text-transform: uppercase; letter-spacing: .03em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .3rem 0; font-size: .85rem; }
.error-box { border: 1px solid var(--bad); color: var(--bad); padding: .5rem .7rem; border-radius: 4px; }
@media (max-width: 40rem) { main { padding: .6rem; } li.tool, li.user-tool { margin-left: .6rem; } }
`;

export const layout = (ctx: PageContext, title: string, body: Markup): Markup => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · tau2-edge</title>
<style nonce="${ctx.nonce}">${raw(STYLE)}</style>
</head>
<body>
<header>
  <nav aria-label="Main">
    <a href="/">Runs</a>
    <a href="/compare">Compare</a>
    ${ctx.canAct ? html`<a href="/schedules">Schedules</a>` : ''}
  </nav>
  ${ctx.signedIn ? html`<form method="post" action="/logout">${csrfField(ctx)}<button type="submit">Sign out</button></form>` : ''}
</header>
<main id="main">
${body}
</main>
</body>
</html>`;

/** The hidden CSRF field every state-changing form carries. */
export const csrfField = (ctx: PageContext): Markup => (ctx.csrfToken === null ? html`` : html`<input type="hidden" name="csrf" value="${ctx.csrfToken}">`);
