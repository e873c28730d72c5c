// The paired difference B − A with its 95% CI as inline SVG, drawn on the server: an axis from −1 to +1, a line at
// 0, the interval as a bar and the difference as a dot. An interval that does not cross 0 is a resolved difference.
import { scaleLinear } from 'd3-scale';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

const WIDTH = 420;
const HEIGHT = 64;
const MARGIN = { left: 16, right: 16 };
const AXIS_Y = 40;

export const differenceChart = (difference: number, low: number, high: number, title: string): HtmlEscapedString | Promise<HtmlEscapedString> => {
  const x = scaleLinear().domain([-1, 1]).range([MARGIN.left, WIDTH - MARGIN.right]).clamp(true);
  const label = `${title}: ${difference.toFixed(3)}, 95% CI ${low.toFixed(3)} to ${high.toFixed(3)}`;
  return html`<figure class="chart">
  <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}" data-chart="difference-ci">
    <title>${label}</title>
    <line class="tick" x1="${x(-1)}" x2="${x(1)}" y1="${AXIS_Y}" y2="${AXIS_Y}" />
    ${[-1, -0.5, 0, 0.5, 1].map((t) => html`<text class="tick" x="${x(t)}" y="${HEIGHT - 6}" text-anchor="middle">${t > 0 ? `+${t}` : t}</text>`)}
    <line class="zero" x1="${x(0)}" x2="${x(0)}" y1="8" y2="${AXIS_Y + 4}" stroke="#555" stroke-dasharray="3 2" />
    <line class="ci" data-low="${low}" data-high="${high}" x1="${x(low)}" x2="${x(high)}" y1="22" y2="22" stroke="#1f5fbf" stroke-width="4" />
    <circle class="difference" data-value="${difference}" cx="${x(difference)}" cy="22" r="5" fill="#1f5fbf" />
  </svg>
  <figcaption>${title}: the dot is the difference, the bar its 95% confidence interval; dashed line at 0.</figcaption>
</figure>`;
};
