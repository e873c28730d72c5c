// How the viewer writes numbers, rewards, money and times: one format per kind of figure on every page. Scores
// (averages, pass^k, their CIs and differences, p-values) to 3 places, one simulation's reward to 2, money to 4.
export const fixed = (value: number | null | undefined, digits = 3): string =>
  value === null || value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits);

export const usd = (value: number | null | undefined): string => (value === null || value === undefined || Number.isNaN(value) ? 'n/a' : `$${value.toFixed(4)}`);

export const signed = (value: number): string => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(3)}`;

/** A duration in seconds as `1h 02m`, `3m 05s` or `42s`. */
export const duration = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
};

/** An ISO timestamp as `2026-11-25 06:13 UTC`. */
export const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export const rewardClass = (reward: number | null): string => (reward === null ? 'warn' : reward >= 1 - 1e-6 ? 'ok' : 'bad');
