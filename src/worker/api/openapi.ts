// The OpenAPI 3.1 document of the /v1 API, generated (zod-openapi) from the same zod schemas that validate
// requests and type responses: this table names each route's schemas, the library writes the JSON Schema.
import { createDocument } from 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import { z } from 'zod';
import {
  ApiErrorSchema,
  ApiKeyCreateSchema,
  ApiKeyCreatedSchema,
  ApiKeyListSchema,
  ApiKeySchema,
  DbDiffSchema,
  EpisodeCreateSchema,
  EpisodeBatchCreatedSchema,
  EpisodeBatchForkSchema,
  EpisodeForkCreatedSchema,
  EpisodeForkSchema,
  EpisodeBatchSchema,
  EpisodeCreatedSchema,
  EpisodeSchema,
  EpisodeStepRequestSchema,
  EpisodeStepSchema,
  RunEpisodesQuerySchema,
  RunEpisodesSchema,
  HealthSchema,
  ProviderCredentialListSchema,
  ProviderCredentialPutSchema,
  ProviderCredentialSchema,
  RerunSchema,
  RunCreatedSchema,
  RunListQuerySchema,
  RunListSchema,
  RunLaunchSchema,
  RunResultsQuerySchema,
  RunUsageSchema,
  RunSchema,
  CompareQuerySchema,
  CompareSchema,
  ScheduleCreateSchema,
  ScheduleListSchema,
  ScheduleSchema,
  ScheduleUpdateSchema,
  TenantQuotasSchema,
  TenantQuotasViewSchema,
} from '../../api/index.ts';
import { ResultsSchema, SimulationRunSchema } from '../../core/schemas/simulation.ts';
import { SESSION_COOKIE } from '../ui/browser-session.ts';
import { CREDENTIAL_PROVIDERS } from '../../core/llm/providers.ts';

const json = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });
const ok = (schema: z.ZodType, description: string) => ({ description, ...json(schema) });
const failure = (description: string) => ({ description, ...json(ApiErrorSchema) });

/** The failures every authenticated route can answer. */
const authFailures = {
  '401': failure('Missing or invalid API key'),
  '403': failure('A request authenticated by the browser session cookie that changes state without its CSRF token (x-csrf-token)'),
  '429': failure('Too many failed authentications from this client (Retry-After)'),
};
const notFound = { '404': failure('No such resource for the caller (another tenant’s is as unknown)') };
const badRequest = {
  '400': failure('Invalid request: the message and issues name each field (also a duplicate key, a BOM, control characters in a name or id)'),
  '413': failure('Body over LIMIT_MAX_BODY_BYTES'),
  '415': failure('Body not sent as Content-Type: application/json'),
};

const operation = (summary: string, responses: ZodOpenApiOperationObject['responses'], extra: Partial<ZodOpenApiOperationObject> = {}): ZodOpenApiOperationObject => ({
  summary,
  responses: { ...responses, ...authFailures },
  security: [{ bearer: [] }, { session: [] }],
  ...extra,
});
const withBody = (schema: z.ZodType) => ({ requestBody: { required: true, ...json(schema) } });

/** Path parameters as the library takes them: a zod object. */
const pathParam = (name: string, description: string) => ({ requestParams: { path: z.object({ [name]: z.string().describe(description) }) } });
const idParam = () => pathParam('id', 'The resource id');
const providerParam = () => pathParam('provider', CREDENTIAL_PROVIDERS.join(', '));
const tenantParam = () => pathParam('tenant', 'The tenant id');
/** A GET of one resource that takes a query: its answer, a bad query, or no such resource. */
const queriedById = (summary: string, answer: ReturnType<typeof ok>, query: z.ZodObject): ZodOpenApiOperationObject =>
  operation(summary, { '200': answer, '400': failure('Bad query'), ...notFound }, { requestParams: { ...idParam().requestParams, query } });
const idempotencyHeader = z.object({
  'Idempotency-Key': z.string().describe('Makes a retried launch return the same run (1 to 256 characters, per tenant)').optional(),
});

const paths: ZodOpenApiPathsObject = {
  '/v1/health': { get: { summary: 'Liveness (no authentication)', responses: { '200': ok(HealthSchema, 'Serving') } } },
  '/v1/openapi.json': { get: { summary: 'This document (no authentication)', responses: { '200': { description: 'The OpenAPI document' } } } },
  '/v1/runs': {
    post: operation(
      'Launch a run: a `tau2 run` configuration',
      {
        '202': ok(RunCreatedSchema, 'Launched (or the run of a repeated Idempotency-Key)'),
        ...badRequest,
        '422': failure('Idempotency-Key already used with another body'),
        '429': failure('Over a quota of the tenant (Retry-After), or too many failed authentications'),
      },
      { ...withBody(RunLaunchSchema), requestParams: { header: idempotencyHeader } },
    ),
    get: operation('The caller’s runs, newest first', { '200': ok(RunListSchema, 'Runs'), '400': failure('Bad query') }, { requestParams: { query: RunListQuerySchema } }),
  },
  '/v1/runs/{id}': { get: operation('A run: status, counts, metrics so far', { '200': ok(RunSchema, 'The run'), ...notFound }, idParam()) },
  '/v1/runs/{id}/results': {
    get: queriedById('The run’s results file (reference format); messages=false leaves the messages out', ok(ResultsSchema, 'Results'), RunResultsQuerySchema),
  },
  '/v1/runs/{id}/usage': {
    get: operation('Tokens and cost by role (agent, user, judge, retrieval, review) over the run’s finished simulations, and the spend of all its model calls as metered', { '200': ok(RunUsageSchema, 'Usage'), ...notFound }, idParam()),
  },
  '/v1/runs/{id}/episodes': {
    get: queriedById('The run’s episodes in work-unit order, with the ids an `external` run’s client steps them by', ok(RunEpisodesSchema, 'A page of episodes'), RunEpisodesQuerySchema),
  },
  '/v1/runs/{id}/events': {
    get: operation(
      'Server-Sent Events: `simulation` per finished simulation, `status` per change; resumes after Last-Event-ID',
      { '200': { description: 'An event stream', content: { 'text/event-stream': {} } }, ...notFound },
      idParam(),
    ),
  },
  '/v1/runs/{id}/cancel': {
    post: operation('Cancel a running run (finished simulations keep their scores)', { '200': ok(RunSchema, 'The run'), ...notFound, '409': failure('Already completed or failed') }, idParam()),
  },
  '/v1/runs/{id}/rerun-infra-errors': {
    post: operation('Re-run the simulations that ended in infrastructure errors', { '202': ok(RerunSchema, 'Re-launched'), ...notFound, '409': failure('Cancelled or failed'), '429': failure('Over a quota of the tenant (Retry-After)') }, idParam()),
  },
  '/v1/compare': {
    get: operation(
      'Is run B better than run A? The paired difference on the tasks both evaluated: its 95% CI, paired t-test, resolved, minimum detectable difference, and the tasks that flipped',
      { '200': ok(CompareSchema, 'The comparison'), '400': failure('Bad query: a and b name two runs'), ...notFound },
      { requestParams: { query: CompareQuerySchema } },
    ),
  },
  '/v1/simulations/{id}': { get: operation('A simulation with its messages and reward_info', { '200': ok(SimulationRunSchema, 'The simulation'), ...notFound }, idParam()) },
  '/v1/simulations/{id}/fork': {
    post: operation(
      'Fork a finished simulation at step `at_step`: its state rebuilt by replaying its tool calls, continued by `n` new episodes',
      {
        '201': ok(EpisodeForkCreatedSchema, 'Forked: the fork group’s run and its episodes'),
        ...badRequest,
        ...notFound,
        '409': failure('A replayed tool result differs from the recorded one (the step is named)'),
        '429': failure('Over a quota of the tenant (Retry-After)'),
      },
      { ...idParam(), ...withBody(EpisodeForkSchema) },
    ),
  },
  '/v1/simulations/{id}/db-diff': {
    get: operation('Where the simulation’s final DB differs from the gold one, changed paths only', { '200': ok(DbDiffSchema, 'The differences'), ...notFound }, idParam()),
  },
  '/v1/episodes': {
    post: operation(
      'Start an agent-driven episode: the caller plays the agent (the reference’s AgentGymEnv)',
      {
        '201': ok(EpisodeCreatedSchema, 'Started: the policy, the agent’s tools and the opening messages'),
        ...badRequest,
        '429': failure('Over a quota of the tenant (Retry-After)'),
        '503': failure('Created but not started in time: read it later at Location (Retry-After)'),
      },
      withBody(EpisodeCreateSchema),
    ),
  },
  '/v1/episodes/batch': {
    post: operation(
      'Start agent-driven episodes at once: every task × trial, as one run, or `n` forks of an episode (`fork_of`); step each by its id (or join it from an OpenEnv session)',
      {
        '201': ok(z.union([EpisodeBatchCreatedSchema, EpisodeForkCreatedSchema]), 'Started (or the episodes of a repeated Idempotency-Key); forks name their origin'),
        ...badRequest,
        '422': failure('Idempotency-Key already used with another body'),
        '429': failure('Over a quota of the tenant (Retry-After)'),
      },
      { ...withBody(z.union([EpisodeBatchSchema, EpisodeBatchForkSchema])), requestParams: { header: idempotencyHeader } },
    ),
  },
  '/v1/episodes/{id}': { get: operation('An episode: state, all messages the agent sees, reward_info once graded', { '200': ok(EpisodeSchema, 'The episode'), ...notFound }, idParam()) },
  '/v1/episodes/{id}/fork': {
    post: operation(
      'Fork the episode at step `at_step`: `n` new episodes in its state then (messages, databases, counters), each continuing under the source’s configuration with the changes given; a running episode can be forked too',
      {
        '201': ok(EpisodeForkCreatedSchema, 'Forked: the fork group’s run and its episodes'),
        ...badRequest,
        ...notFound,
        '409': failure('The source’s record does not replay at a step (named)'),
        '429': failure('Over a quota of the tenant (Retry-After)'),
        '503': failure('The episode has no recorded messages yet (Retry-After)'),
      },
      { ...idParam(), ...withBody(EpisodeForkSchema) },
    ),
  },
  '/v1/episodes/{id}/step': {
    post: operation(
      'The agent’s message for turn `step`: answers with what the agent sees next, and reward_info once done',
      {
        '200': ok(EpisodeStepSchema, 'Applied (or a repeat of an applied step)'),
        ...badRequest,
        ...notFound,
        '409': failure('Not the turn waited for, answered otherwise already, or the episode is over (naming its final step; only that step sent again unchanged is answered)'),
        '503': failure('No answer in time (e.g. the grade not yet stored): send the same step again (Retry-After)'),
      },
      { ...idParam(), ...withBody(EpisodeStepRequestSchema) },
    ),
  },
  '/v1/schedules': {
    post: operation('Schedule an evaluation (due at once, then every interval)', { '201': ok(ScheduleSchema, 'Created'), ...badRequest, '429': failure('Over the schedules quota') }, withBody(ScheduleCreateSchema)),
    get: operation('The caller’s schedules', { '200': ok(ScheduleListSchema, 'Schedules') }),
  },
  '/v1/schedules/{id}': {
    get: operation('A schedule', { '200': ok(ScheduleSchema, 'The schedule'), ...notFound }, idParam()),
    patch: operation('Change a schedule', { '200': ok(ScheduleSchema, 'The schedule'), ...badRequest, ...notFound }, { ...idParam(), ...withBody(ScheduleUpdateSchema) }),
    delete: operation('Delete a schedule', { '204': { description: 'Deleted' }, ...notFound }, idParam()),
  },
  '/v1/provider-credentials': { get: operation('The caller’s provider credentials (keys never shown)', { '200': ok(ProviderCredentialListSchema, 'Credentials') }) },
  '/v1/provider-credentials/{provider}': {
    put: operation(
      'Store the caller’s own provider credentials (encrypted at rest, write-only)',
      { '200': ok(ProviderCredentialSchema, 'Stored'), ...badRequest, '503': failure('The operator has set no CREDENTIALS_KEY') },
      { ...providerParam(), ...withBody(ProviderCredentialPutSchema) },
    ),
    delete: operation('Remove the caller’s credentials for a provider', { '204': { description: 'Removed' }, ...notFound }, providerParam()),
  },
  '/v1/admin/keys': {
    post: operation('Operator: issue a tenant API key (shown once)', { '201': ok(ApiKeyCreatedSchema, 'Created'), ...badRequest, ...notFound }, withBody(ApiKeyCreateSchema)),
    get: operation('Operator: every tenant API key, by prefix', { '200': ok(ApiKeyListSchema, 'Keys'), ...notFound }),
  },
  '/v1/admin/keys/{id}': { delete: operation('Operator: revoke a key', { '200': ok(ApiKeySchema, 'Revoked'), ...notFound }, idParam()) },
  '/v1/admin/tenants/{tenant}/quotas': {
    get: operation('Operator: a tenant’s quotas and usage', { '200': ok(TenantQuotasViewSchema, 'Quotas'), ...notFound }, tenantParam()),
    put: operation('Operator: set a tenant’s quotas (null = unlimited)', { '200': ok(TenantQuotasViewSchema, 'Quotas'), ...badRequest, ...notFound }, { ...tenantParam(), ...withBody(TenantQuotasSchema) }),
  },
};

/** The document, built once per isolate. */
let document: ReturnType<typeof createDocument> | undefined;
export const openApiDocument = (): ReturnType<typeof createDocument> =>
  (document ??= createDocument({
    openapi: '3.1.0',
    info: {
      title: 'tau2-edge',
      version: '1',
      description: 'The τ²-bench benchmark as a hosted service: runs, simulations, schedules, tenants and their provider credentials.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The operator key or a tenant API key' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The web viewer’s session (POST /login with an API key); state changes also need its CSRF token in x-csrf-token',
        },
      },
    },
    paths,
  }));
