// Retrying provider calls: attempts with jittered exponential backoff, and which failures deserve another try
// (the reference relies on litellm's `num_retries=3`).
import { isInfraError } from './types.ts';

export interface TryOptions {
  /** Whether a failure is worth another attempt; defaults to `isRetryable`. */
  readonly shouldRetry?: (err: unknown, attempt: number) => boolean;
  /** Injected so tests (and a Durable Object alarm) control waiting. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Delay before the first retry; doubles for each further one. */
  readonly baseMs?: number;
  /** Upper bound of one delay. */
  readonly maxMs?: number;
  /** Source of jitter in [0, 1). */
  readonly random?: () => number;
  /** The wait the failure itself asks for (e.g. an API's Retry-After), or null for the jittered backoff. */
  readonly delayMs?: (err: unknown, attempt: number) => number | null;
  /** Called before each wait, e.g. for logging; must not throw. */
  readonly onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
}

export const DEFAULT_BASE_MS = 500;
export const DEFAULT_MAX_MS = 8_000;

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait before retry number `retry` (1-based): `baseMs * 2^(retry-1)` capped at `maxMs`, shortened by up to
 * a quarter at random so that many episodes hitting one rate limit do not retry in lockstep.
 */
export const jitterBackoff = (
  retry: number,
  baseMs: number = DEFAULT_BASE_MS,
  maxMs: number = DEFAULT_MAX_MS,
  random: () => number = Math.random,
): number => {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling * (1 - 0.25 * random()));
};

/**
 * Runs `fn` up to `attempts` times (attempt numbers start at 1), waiting with `jitterBackoff` (or the failure's
 * own `delayMs`) between attempts; rethrows the last error once attempts run out or `shouldRetry` declines.
 */
export async function tryN<T>(attempts: number, fn: (attempt: number) => Promise<T>, opts: TryOptions = {}): Promise<T> {
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`tryN needs at least 1 attempt, got ${attempts}`);
  const shouldRetry = opts.shouldRetry ?? isRetryable;
  const sleep = opts.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= attempts || !shouldRetry(err, attempt)) throw err;
      const delayMs = opts.delayMs?.(err, attempt) ?? jitterBackoff(attempt, opts.baseMs, opts.maxMs, opts.random);
      opts.onRetry?.(err, attempt, delayMs);
      await sleep(delayMs);
    }
  }
}

/** Request timeout, conflict, rate limit and server errors are transient; other 4xx are the caller's fault. */
export const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

const NETWORK_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
]);

const field = (err: unknown, key: string): unknown =>
  typeof err === 'object' && err !== null ? (err as Record<string, unknown>)[key] : undefined;

/** An aborted or timed-out request (`AbortSignal.timeout` rejects with a `TimeoutError`). */
export const isTimeoutOrAbort = (err: unknown): boolean => {
  const name = field(err, 'name');
  return name === 'TimeoutError' || name === 'AbortError';
};

/**
 * How workerd's fetch reports a connection closed under a request (a plain Error): e.g. a server closing an idle
 * keep-alive connection just as the runtime reuses it for the next request.
 */
const WORKERD_DISCONNECTED = /^Network connection lost\.?$/;

/**
 * A connection-level failure: `fetch failed` TypeErrors, workerd's lost connection and socket error codes,
 * anywhere in the cause chain.
 */
export const isNetworkError = (err: unknown): boolean => {
  const seen = new Set<unknown>();
  for (let e: unknown = err; typeof e === 'object' && e !== null && !seen.has(e); e = field(e, 'cause')) {
    seen.add(e);
    const code = field(e, 'code');
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && /^(fetch failed|failed to fetch|network ?error)/i.test(e.message)) return true;
    if (e instanceof Error && WORKERD_DISCONNECTED.test(e.message)) return true;
  }
  return false;
};

/** The HTTP status an error carries (`statusCode` on AI SDK errors, `status` elsewhere). */
export const statusOf = (err: unknown): number | undefined => {
  const status = field(err, 'statusCode') ?? field(err, 'status');
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
};

/**
 * Whether a failure is transient: an InfraError says so itself; otherwise 408/409/429/5xx, timeouts and
 * network errors are, and every other error (400/401/403/404, programming errors) is not.
 */
export const isRetryable = (err: unknown): boolean => {
  if (isInfraError(err)) return err.retryable;
  if (isTimeoutOrAbort(err) || isNetworkError(err)) return true;
  const status = statusOf(err);
  return status !== undefined && isRetryableStatus(status);
};
