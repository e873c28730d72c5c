// A client of the tau2-edge HTTP API (/v1): every body is checked against the API contract's schemas, and
// bodies that carry Python values are read with `parsePyJson` so int/float kinds survive into results files.
import type { z } from 'zod';
import { dumpsPy, parsePyJson } from '../core/py/index.ts';
import type { PyValue } from '../core/py/index.ts';
import {
  API_PREFIX,
  ApiErrorSchema,
  ApiKeyCreatedSchema,
  ApiKeyListSchema,
  ApiKeySchema,
  IDEMPOTENCY_KEY_HEADER,
  RUN_EVENT,
  RerunSchema,
  RunCreatedSchema,
  RunListSchema,
  RunSchema,
  RunStatusEventSchema,
  SimulationEventSchema,
} from '../core/schemas/api.ts';
import type { ApiKey, ApiKeyCreated, Rerun, Run, RunCreated, RunList, RunStatusEvent, SimulationEvent } from '../core/schemas/api.ts';
import type { RunConfig } from '../core/schemas/run-config.ts';
import { ResultsSchema, SimulationRunSchema } from '../core/schemas/simulation.ts';
import type { Results, SimulationRun } from '../core/schemas/simulation.ts';
import { readEvents } from './sse.ts';

/** A failure the API answered with its error body (or an unexpected status). */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
  }
}

export type RunEvent =
  | { readonly kind: 'simulation'; readonly id: string | null; readonly event: SimulationEvent }
  | { readonly kind: 'status'; readonly id: string | null; readonly event: RunStatusEvent };

export interface ApiClient {
  readonly baseUrl: string;
  createRun(config: RunConfig, idempotencyKey?: string): Promise<RunCreated>;
  run(id: string): Promise<Run>;
  results(id: string): Promise<Results>;
  simulation(id: string): Promise<SimulationRun>;
  cancel(id: string): Promise<Run>;
  /** The newest runs first (at most `limit`). */
  listRuns(limit: number): Promise<RunList['runs']>;
  /** Runs the run's infrastructure-error simulations again. */
  rerunInfraErrors(id: string): Promise<Rerun>;
  /** Operator only: a tenant's new API key (the key itself is in this answer and nowhere else). */
  createKey(tenant: string, name: string): Promise<ApiKeyCreated>;
  listKeys(): Promise<ApiKey[]>;
  revokeKey(id: string): Promise<ApiKey>;
  /** The run's events from `lastEventId` on (all of them without it), until the stream ends. */
  events(id: string, options?: { lastEventId?: string | null; signal?: AbortSignal }): AsyncGenerator<RunEvent>;
}

const failure = async (response: Response): Promise<ApiRequestError> => {
  const text = await response.text();
  try {
    const { error } = ApiErrorSchema.parse(JSON.parse(text));
    return new ApiRequestError(response.status, error.code, `${error.code}: ${error.message}`);
  } catch {
    return new ApiRequestError(response.status, 'unexpected_response', `HTTP ${response.status}: ${text.slice(0, 300)}`);
  }
};

/** `apiKey` (e.g. from TAU2_EDGE_API_KEY) is sent as a Bearer token; it never appears in errors. */
export const apiClient = (baseUrl: string, apiKey?: string): ApiClient => {
  const root = baseUrl.replace(/\/+$/, '');
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...extra,
  });
  const request = async (method: string, route: string, init: { body?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}) => {
    const response = await fetch(`${root}${API_PREFIX}${route}`, {
      method,
      headers: headers(init.headers),
      ...(init.body === undefined ? {} : { body: init.body }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    if (!response.ok) throw await failure(response);
    return response;
  };
  const json = async <S extends z.ZodType>(schema: S, method: string, route: string, body?: string, extra?: Record<string, string>) =>
    schema.parse(parsePyJson(await (await request(method, route, { ...(body === undefined ? {} : { body }), headers: extra })).text())) as z.infer<S>;

  return {
    baseUrl: root,
    createRun: (config, idempotencyKey) =>
      json(RunCreatedSchema, 'POST', '/runs', dumpsPy(config as unknown as PyValue), {
        'content-type': 'application/json',
        ...(idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } : {}),
      }),
    run: (id) => json(RunSchema, 'GET', `/runs/${encodeURIComponent(id)}`),
    results: (id) => json(ResultsSchema, 'GET', `/runs/${encodeURIComponent(id)}/results`),
    simulation: (id) => json(SimulationRunSchema, 'GET', `/simulations/${encodeURIComponent(id)}`),
    cancel: (id) => json(RunSchema, 'POST', `/runs/${encodeURIComponent(id)}/cancel`),
    listRuns: async (limit) => (await json(RunListSchema, 'GET', `/runs?limit=${limit}`)).runs,
    rerunInfraErrors: (id) => json(RerunSchema, 'POST', `/runs/${encodeURIComponent(id)}/rerun-infra-errors`),
    createKey: (tenant, name) =>
      json(ApiKeyCreatedSchema, 'POST', '/admin/keys', JSON.stringify({ tenant, name }), { 'content-type': 'application/json' }),
    listKeys: async () => (await json(ApiKeyListSchema, 'GET', '/admin/keys')).keys,
    revokeKey: (id) => json(ApiKeySchema, 'DELETE', `/admin/keys/${encodeURIComponent(id)}`),
    async *events(id, options = {}) {
      const response = await request('GET', `/runs/${encodeURIComponent(id)}/events`, {
        headers: { accept: 'text/event-stream', ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (!response.body) return;
      for await (const event of readEvents(response.body)) {
        if (event.event === RUN_EVENT.simulation) {
          yield { kind: 'simulation', id: event.id, event: SimulationEventSchema.parse(JSON.parse(event.data)) };
        } else if (event.event === RUN_EVENT.status) {
          yield { kind: 'status', id: event.id, event: RunStatusEventSchema.parse(JSON.parse(event.data)) };
        }
      }
    },
  };
};
