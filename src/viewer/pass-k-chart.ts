// The pass^k-versus-k chart as inline SVG, drawn on the server: d3-scale places the points and picks the
// ticks, d3-shape draws the lines. No script runs in the browser, so the chart renders with the page, in the
// offline viewer too, and stays readable without JavaScript. A series may carry each point's 95% CI, drawn as a
// vertical error bar.
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export interface ChartSeries {
  readonly label: string;
  readonly points: readonly (readonly [number, number])[];
  /** [k, low, high] of a 95% CI at k, drawn as an error bar (clipped to [0, 1]) where the series has a point. */
  readonly errors?: readonly (readonly [number, number, number])[];
}

const clip = (v: number): number => Math.min(1, Math.max(0, v));

const WIDTH = 420;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 36, left: 44 };
/** Distinct in hue and lightness, each at least 3:1 against the white background (the legend's .c0–.c3 match). */
const COLORS = ['#1f5fbf', '#b3261e', '#2e7d32', '#6a1b9a'];

export const passHatKChart = (series: readonly ChartSeries[], title: string): HtmlEscapedString | Promise<HtmlEscapedString> => {
  const maxK = Math.max(1, ...series.flatMap((s) => s.points.map(([k]) => k)));
  const x = scaleLinear().domain([1, Math.max(2, maxK)]).range([MARGIN.left, WIDTH - MARGIN.right]);
  const y = scaleLinear().domain([0, 1]).range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const path = line<readonly [number, number]>()
    .x(([k]) => x(k))
    .y(([, v]) => y(v));
  const xTicks = x.ticks(Math.min(maxK, 8)).filter(Number.isInteger);
  const yTicks = y.ticks(5);
  const ci = (s: ChartSeries, k: number): string => {
    const bar = s.errors?.find(([at]) => at === k);
    return bar === undefined ? '' : ` (95% CI ${clip(bar[1]).toFixed(3)}–${clip(bar[2]).toFixed(3)})`;
  };
  const summary = series.map((s) => `${s.label}: ${s.points.map(([k, v]) => `pass^${k} ${v.toFixed(3)}${ci(s, k)}`).join(', ')}`).join('; ');
  return html`<figure class="chart">
  <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${title}. ${summary}" data-chart="pass-hat-k">
    <title>${title}</title>
    ${yTicks.map((t) => html`<g class="tick"><line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(t)}" y2="${y(t)}" /><text x="${MARGIN.left - 6}" y="${y(t) + 4}" text-anchor="end">${t.toFixed(1)}</text></g>`)}
    ${xTicks.map((k) => html`<text class="tick" x="${x(k)}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${k}</text>`)}
    <text class="axis" x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${HEIGHT - 4}" text-anchor="middle">k</text>
    <text class="axis" x="12" y="${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}" text-anchor="middle" transform="rotate(-90 12 ${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2})">pass^k</text>
    ${series.map(
      (s, i) => html`<g class="series" data-series="${s.label}" stroke="${COLORS[i % COLORS.length]}" fill="${COLORS[i % COLORS.length]}">
      <path d="${path(s.points) ?? ''}" fill="none" stroke-width="2" />
      ${(s.errors ?? []).filter(([k]) => s.points.some(([at]) => at === k)).map(([k, low, high]) => html`<line class="error-bar" data-k="${k}" x1="${x(k)}" x2="${x(k)}" y1="${y(clip(low))}" y2="${y(clip(high))}" stroke-width="1.5" />`)}
      ${s.points.map(([k, v]) => html`<circle cx="${x(k)}" cy="${y(v)}" r="3.5"><title>${s.label} pass^${k} = ${v.toFixed(3)}${ci(s, k)}</title></circle>`)}
    </g>`,
    )}
  </svg>
  <figcaption>${series.map((s, i) => html`<span class="legend"><span class="swatch c${i % COLORS.length}"></span>${s.label}</span> `)}</figcaption>
</figure>`;
};
