// Time as the engine sees it: injected, so tests and Durable Objects control it.

export interface Clock {
  /** Milliseconds since the epoch. */
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Python `datetime.isoformat()` of a naive timestamp (UTC here); microseconds omitted when zero. */
export const isoTimestamp = (ms: number): string => {
  const d = new Date(ms);
  const base =
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const micros = d.getUTCMilliseconds() * 1000;
  return micros === 0 ? base : `${base}.${pad(micros, 6)}`;
};
