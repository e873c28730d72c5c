// The typed client of the tau2-edge HTTP API (/v1), exported as `tau2-edge/client` and used by the CLI: every
// body is checked against the API contract's schemas. Bodies that carry Python values (runs, results) are read
// with `parsePyJson` so int/float kinds survive into results files; episode bodies, which an agent's own code
// reads, are plain JSON.
import type { z } from 'zod';
import { dumpsPy, parsePyJson } from '../core/py/index.ts';
import type { PyValue } from '../core/py/index.ts';
import {
  API_PREFIX,
  ApiErrorSchema,
  ApiKeyCreatedSchema,
  ApiKeyListSchema,
  ApiKeySchema,
  CompareSchema,
  DbDiffSchema,
  EpisodeCreatedSchema,
  EpisodeForkCreatedSchema,
  EpisodeSchema,
  EpisodeStepSchema,
  IDEMPOTENCY_KEY_HEADER,
  RUN_EVENT,
  RerunSchema,
  RunCreatedSchema,
  RunEpisodesSchema,
  RunListSchema,
  RunSchema,
  RunStatusEventSchema,
  RunUsageSchema,
  ScheduleListSchema,
  ScheduleSchema,
  SimulationEventSchema,
} from '../api/index.ts';
import type {
  ApiKey,
  ApiKeyCreated,
  Compare,
  DbDiff,
  Episode,
  EpisodeCreateInput,
  EpisodeCreated,
  EpisodeForkCreated,
  EpisodeForkInput,
  EpisodeStep,
  EpisodeStepRequest,
  Rerun,
  Run,
  RunCreated,
  RunEpisodes,
  RunEpisodesQuery,
  RunList,
  RunListFilter,
  RunStatusEvent,
  RunUsage,
  Schedule,
  ScheduleCreate,
  ScheduleUpdate,
  SimulationEvent,
} from '../api/index.ts';
import type { RunConfig } from '../core/schemas/run-config.ts';
import { ResultsSchema, SimulationRunSchema } from '../core/schemas/simulation.ts';
import type { Results, SimulationRun } from '../core/schemas/simulation.ts';
import { readEvents } from './sse.ts';
import { tryN } from '../core/llm/retry.ts';

/** A failure the API answered with its error body (or an unexpected status). */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  /** How long the API asked the caller to wait before asking again (Retry-After, in seconds), or null. */
  readonly retryAfterSeconds: number | null;
  constructor(status: number, code: string, message: string, retryAfterSeconds: number | null = null) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * A step the API had no answer to within its wait (503 `not_ready`, e.g. the grade not yet stored) or could not
 * take for capacity (503 `overloaded`) is sent again after its Retry-After, up to this many sends in all: the API
 * applies each step once, so it is safe.
 */
const STEP_SENDS = 3;

/** The 503 answers after which the same step is sent again. */
const STEP_RETRIED: ReadonlySet<string> = new Set(['not_ready', 'overloaded']);

export type RunEvent =
  | { readonly kind: 'simulation'; readonly id: string | null; readonly event: SimulationEvent }
  | { readonly kind: 'status'; readonly id: string | null; readonly event: RunStatusEvent };

export interface ApiClient {
  readonly baseUrl: string;
  createRun(config: RunConfig, idempotencyKey?: string): Promise<RunCreated>;
  run(id: string): Promise<Run>;
  /** The results file; `messages: false` leaves each simulation's messages out (null), a much lighter read. */
  results(id: string, options?: { readonly messages?: boolean }): Promise<Results>;
  /** Tokens and cost per participant over the run's finished simulations. */
  usage(id: string): Promise<RunUsage>;
  simulation(id: string): Promise<SimulationRun>;
  /** Run B against run A, paired on the tasks both evaluated. */
  compare(a: string, b: string): Promise<Compare>;
  /** Where the simulation's final DB differs from the gold one, changed paths only. */
  dbDiff(id: string): Promise<DbDiff>;
  cancel(id: string): Promise<Run>;
  /** The newest runs first (at most `limit`), optionally only those of a status, a domain or a model. */
  listRuns(limit: number, filter?: RunListFilter): Promise<RunList['runs']>;
  /** Runs the run's infrastructure-error simulations again. */
  rerunInfraErrors(id: string): Promise<Rerun>;
  /** The caller's scheduled evaluations. */
  listSchedules(): Promise<Schedule[]>;
  createSchedule(schedule: ScheduleCreate): Promise<Schedule>;
  updateSchedule(id: string, change: ScheduleUpdate): Promise<Schedule>;
  deleteSchedule(id: string): Promise<void>;
  /** Operator only: a tenant's new API key (the key itself is in this answer and nowhere else). */
  createKey(tenant: string, name: string): Promise<ApiKeyCreated>;
  listKeys(): Promise<ApiKey[]>;
  revokeKey(id: string): Promise<ApiKey>;
  /** The run's events from `lastEventId` on (all of them without it), until the stream ends. */
  events(id: string, options?: { lastEventId?: string | null; signal?: AbortSignal }): AsyncGenerator<RunEvent>;
  /** A page of the run's episodes (an `external` run's are stepped with `step`). */
  runEpisodes(id: string, query?: Partial<RunEpisodesQuery>): Promise<RunEpisodes>;
  /** Starts an agent-driven episode: the policy, the agent's tools and the opening messages. */
  createEpisode(request: EpisodeCreateInput): Promise<EpisodeCreated>;
  /**
   * Submits the agent's message for turn `step`: what the agent sees next, and reward_info once done. A step
   * the API had no answer to yet (`not_ready`) or no capacity for (`overloaded`) is sent again after its
   * Retry-After, a few times at most.
   */
  step(id: string, step: number, message: EpisodeStepRequest['message']): Promise<EpisodeStep>;
  episode(id: string): Promise<Episode>;
  /** Opens forks of an episode (`episode`) or of a finished simulation (`simulation`) at a step: their run and episode ids. */
  fork(source: { readonly episode: string } | { readonly simulation: string }, request: EpisodeForkInput): Promise<EpisodeForkCreated>;
}

export interface ApiClientOptions {
  /** The fetch to call the API with (the global one by default), e.g. a Worker binding's. */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** Retry-After in seconds (the API sends no HTTP dates), or null. */
const retryAfterOf = (response: Response): number | null => {
  const seconds = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
  return Number.isSafeInteger(seconds) && seconds >= 0 ? seconds : null;
};

const failure = async (response: Response): Promise<ApiRequestError> => {
  const text = await response.text();
  try {
    const { error } = ApiErrorSchema.parse(JSON.parse(text));
    return new ApiRequestError(response.status, error.code, `${error.code}: ${error.message}`, retryAfterOf(response));
  } catch {
    return new ApiRequestError(response.status, 'unexpected_response', `HTTP ${response.status}: ${text.slice(0, 300)}`);
  }
};

/** `apiKey` (e.g. from TAU2_EDGE_API_KEY) is sent as a Bearer token; it never appears in errors. */
export const apiClient = (baseUrl: string, apiKey?: string, options: ApiClientOptions = {}): ApiClient => {
  const send = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const root = baseUrl.replace(/\/+$/, '');
  const headers = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...extra,
  });
  const request = async (method: string, route: string, init: { body?: string; headers?: Record<string, string>; signal?: AbortSignal } = {}) => {
    const response = await send(`${root}${API_PREFIX}${route}`, {
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
  const plainJson = async <S extends z.ZodType>(schema: S, method: string, route: string, body?: unknown) =>
    schema.parse(
      await (
        await request(method, route, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
      ).json(),
    ) as z.infer<S>;
  const episodePath = (id: string) => `/episodes/${encodeURIComponent(id)}`;

  return {
    baseUrl: root,
    createRun: (config, idempotencyKey) =>
      json(RunCreatedSchema, 'POST', '/runs', dumpsPy(config as unknown as PyValue), {
        'content-type': 'application/json',
        ...(idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } : {}),
      }),
    run: (id) => json(RunSchema, 'GET', `/runs/${encodeURIComponent(id)}`),
    results: (id, options = {}) => json(ResultsSchema, 'GET', `/runs/${encodeURIComponent(id)}/results${options.messages === false ? '?messages=false' : ''}`),
    usage: (id) => plainJson(RunUsageSchema, 'GET', `/runs/${encodeURIComponent(id)}/usage`),
    simulation: (id) => json(SimulationRunSchema, 'GET', `/simulations/${encodeURIComponent(id)}`),
    compare: (a, b) => json(CompareSchema, 'GET', `/compare?${new URLSearchParams({ a, b })}`),
    dbDiff: (id) => plainJson(DbDiffSchema, 'GET', `/simulations/${encodeURIComponent(id)}/db-diff`),
    cancel: (id) => json(RunSchema, 'POST', `/runs/${encodeURIComponent(id)}/cancel`),
    listRuns: async (limit, filter = {}) => {
      const query = new URLSearchParams({ limit: String(limit) });
      for (const [key, value] of Object.entries(filter)) if (value !== undefined) query.set(key, value);
      return (await json(RunListSchema, 'GET', `/runs?${query}`)).runs;
    },
    rerunInfraErrors: (id) => json(RerunSchema, 'POST', `/runs/${encodeURIComponent(id)}/rerun-infra-errors`),
    listSchedules: async () => (await json(ScheduleListSchema, 'GET', '/schedules')).schedules,
    createSchedule: (schedule) => json(ScheduleSchema, 'POST', '/schedules', dumpsPy(schedule as PyValue), { 'content-type': 'application/json' }),
    updateSchedule: (id, change) =>
      json(ScheduleSchema, 'PATCH', `/schedules/${encodeURIComponent(id)}`, dumpsPy(change as PyValue), { 'content-type': 'application/json' }),
    deleteSchedule: async (id) => {
      await request('DELETE', `/schedules/${encodeURIComponent(id)}`);
    },
    createKey: (tenant, name) =>
      json(ApiKeyCreatedSchema, 'POST', '/admin/keys', JSON.stringify({ tenant, name }), { 'content-type': 'application/json' }),
    listKeys: async () => (await json(ApiKeyListSchema, 'GET', '/admin/keys')).keys,
    revokeKey: (id) => json(ApiKeySchema, 'DELETE', `/admin/keys/${encodeURIComponent(id)}`),
    runEpisodes: (id, query = {}) => {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      return plainJson(RunEpisodesSchema, 'GET', `/runs/${encodeURIComponent(id)}/episodes?${params}`);
    },
    createEpisode: (body) => plainJson(EpisodeCreatedSchema, 'POST', '/episodes', body),
    step: (id, step, message) =>
      tryN(STEP_SENDS, () => plainJson(EpisodeStepSchema, 'POST', `${episodePath(id)}/step`, { step, message }), {
        shouldRetry: (error) => error instanceof ApiRequestError && STEP_RETRIED.has(error.code),
        delayMs: (error) => ((error as ApiRequestError).retryAfterSeconds ?? 1) * 1000,
      }),
    episode: (id) => plainJson(EpisodeSchema, 'GET', episodePath(id)),
    fork: (source, body) =>
      plainJson(EpisodeForkCreatedSchema, 'POST', `${'episode' in source ? episodePath(source.episode) : `/simulations/${encodeURIComponent(source.simulation)}`}/fork`, body),
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
