// Calling the Worker's API from the tests: through its own default export, with the test API key, reading
// bodies as Python JSON (number kinds kept) and waiting for runs to finish.
import { exports } from 'cloudflare:workers';
import { parsePyJson } from '../../../src/core/py/index.ts';
import { RunSchema } from '../../../src/api/index.ts';
import type { Run } from '../../../src/api/index.ts';
import { API_KEY } from './script.ts';

export const BASE = 'http://tau2-edge.test';

export interface CallOptions {
  readonly method?: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Leave out the Authorization header. */
  readonly anonymous?: boolean;
}

export const call = (path: string, options: CallOptions = {}): Promise<Response> =>
  exports.default.fetch(`${BASE}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.anonymous ? {} : { authorization: `Bearer ${API_KEY}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });

export const pyBody = async (response: Response): Promise<unknown> => parsePyJson(await response.text());

/** The run as the operator (or the tenant whose key is given) sees it. */
export const getRun = async (id: string, apiKey = API_KEY): Promise<Run> =>
  RunSchema.parse(await pyBody(await call(`/v1/runs/${id}`, { headers: { authorization: `Bearer ${apiKey}` } })));

/** Polls the run until it leaves `running`. */
export const waitForRun = async (id: string, { timeoutMs = 45_000, apiKey = API_KEY }: { timeoutMs?: number; apiKey?: string } = {}): Promise<Run> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(id, apiKey);
    if (run.status !== 'running') return run;
    if (Date.now() > deadline) throw new Error(`Run ${id} still running: ${JSON.stringify(run.counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

export const startRun = async (body: unknown, headers: Record<string, string> = {}): Promise<string> => {
  const response = await call('/v1/runs', { body, headers });
  if (response.status !== 202) throw new Error(`POST /v1/runs answered ${response.status}: ${await response.text()}`);
  return (JSON.parse(await response.text()) as { run_id: string }).run_id;
};

/**
 * Waits, when needed, until the failed-authentication limiter's window has most of its 60 s ahead: it counts in
 * windows aligned to the clock, so requests that cross a window's end are counted afresh.
 */
export const wellInsideLimiterWindow = async (): Promise<void> => {
  const into = Date.now() % 60_000;
  if (into > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - into + 100));
};
