// D1 tables (drizzle): runs, their simulations (one row each, messages apart), messages (one row per
// message, so no row nears D1's 1 MB limit), scheduled evaluations, tenants' API keys and episode tokens. Runs and schedules
// belong to a tenant (simulations through their run); the operator is the tenant `operator`. Python values are stored as `dumpsPy`
// JSON text so int/float kinds survive; src/worker/db/rows.ts maps rows to API and engine types.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const runs = sqliteTable(
  'runs',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull().default('operator'),
    status: text('status', { enum: ['running', 'completed', 'cancelled', 'failed'] }).notNull(),
    /** The validated RunConfig. */
    config: text('config').notNull(),
    /** Episodes in the run: selected tasks × trials. */
    total: integer('total').notNull(),
    scheduleId: text('schedule_id'),
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the request body, to refuse a reused Idempotency-Key with another body. */
    requestHash: text('request_hash'),
    /** Why a `failed` run could not be started. */
    error: text('error'),
    /** The agent endpoint's headers (config.agent_endpoint), encrypted under CREDENTIALS_KEY for the tenant. */
    agentHeadersCiphertext: text('agent_headers_ciphertext'),
    /** A run adding trials in rounds: its RunRounds as JSON (null: a run of fixed size). */
    rounds: text('rounds'),
    /** Why a run adding rounds stopped adding them (a RunStopReason), once it did. */
    stopReason: text('stop_reason'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('runs_idempotency_key').on(t.idempotencyKey),
    index('runs_created_at').on(t.createdAt),
    index('runs_tenant_created_at').on(t.tenantId, t.createdAt),
  ],
);

export const simulations = sqliteTable(
  'simulations',
  {
    /** Completion order of the run's simulations. */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull(),
    runId: text('run_id').notNull(),
    taskId: text('task_id').notNull(),
    trial: integer('trial').notNull(),
    terminationReason: text('termination_reason').notNull(),
    reward: real('reward'),
    agentCost: real('agent_cost'),
    duration: real('duration').notNull(),
    /** The SimulationRun without its messages. */
    record: text('record').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('simulations_id').on(t.id), uniqueIndex('simulations_episode').on(t.runId, t.taskId, t.trial)],
);

export const messages = sqliteTable(
  'messages',
  {
    simulationId: text('simulation_id').notNull(),
    idx: integer('idx').notNull(),
    role: text('role').notNull(),
    /** The Message. */
    body: text('body').notNull(),
  },
  (t) => [primaryKey({ columns: [t.simulationId, t.idx] })],
);

export const schedules = sqliteTable(
  'schedules',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull().default('operator'),
    name: text('name').notNull(),
    intervalMinutes: integer('interval_minutes').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    /** The RunConfig each launch uses. */
    runConfig: text('run_config').notNull(),
    nextRunAt: text('next_run_at').notNull(),
    lastRunAt: text('last_run_at'),
    lastRunId: text('last_run_id'),
    /** Why the last launch failed; cleared by the next launch. */
    lastError: text('last_error'),
    /** As runs.agent_headers_ciphertext: each launch's run gets a copy. */
    agentHeadersCiphertext: text('agent_headers_ciphertext'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('schedules_due').on(t.enabled, t.nextRunAt)],
);

/** A tenant's API key: only its SHA-256 is kept (the key is shown once, when created). */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    name: text('name').notNull(),
    /** Hex SHA-256 of the key. */
    keyHash: text('key_hash').notNull(),
    /** The key's first characters, so a person can tell keys apart. */
    prefix: text('prefix').notNull(),
    createdAt: text('created_at').notNull(),
    revokedAt: text('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_key_hash').on(t.keyHash), index('api_keys_tenant').on(t.tenantId)],
);

/**
 * Tokens that open one episode's MCP endpoint (and nothing else), handed out once when the episode is created:
 * only their hash is kept.
 */
export const episodeTokens = sqliteTable('episode_tokens', {
  /** Hex SHA-256 of the token. */
  tokenHash: text('token_hash').primaryKey(),
  tenantId: text('tenant_id').notNull(),
  episodeId: text('episode_id').notNull(),
  createdAt: text('created_at').notNull(),
});

/** A tenant's quotas, set by the operator; a null quota is unlimited, and a tenant without a row has none. */
export const tenantQuotas = sqliteTable('tenant_quotas', {
  tenantId: text('tenant_id').primaryKey(),
  /** Episodes pending or running over all the tenant's runs. */
  episodesInFlight: integer('episodes_in_flight'),
  /** Episodes of runs launched since 00:00 UTC. */
  episodesPerDay: integer('episodes_per_day'),
  schedules: integer('schedules'),
  /** USD spent by the tenant's model calls since 00:00 UTC (calls in flight at their reserved bound). */
  usdPerDay: real('usd_per_day'),
  updatedAt: text('updated_at').notNull(),
});

/** Infrastructure errors re-run: episodes launched again, counted in the day's episodes_per_day usage. */
export const reruns = sqliteTable(
  'reruns',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    runId: text('run_id').notNull(),
    episodes: integer('episodes').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('reruns_tenant_created_at').on(t.tenantId, t.createdAt)],
);

/**
 * The tenant's spend ledger: one row per model call (every role, every attempt), written before the call with an
 * upper bound of its cost (`reserved_usd`) and settled with its real cost after; a row not yet settled counts at
 * its bound. Spend is read from these rows only (db/spend.ts).
 */
export const modelCalls = sqliteTable(
  'model_calls',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    /** The run the call was made for; null for calls outside a run. */
    runId: text('run_id'),
    model: text('model').notNull(),
    reservedUsd: real('reserved_usd').notNull(),
    /** The call's real cost; null while in flight. 0 for a failed call and for a model without a known price. */
    costUsd: real('cost_usd'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('model_calls_tenant_created_at').on(t.tenantId, t.createdAt), index('model_calls_run').on(t.runId)],
);

/**
 * A tenant's own provider credentials (bring-your-own provider): the key encrypted with AES-GCM under the
 * CREDENTIALS_KEY secret, never stored or returned in plain text.
 */
export const providerCredentials = sqliteTable(
  'provider_credentials',
  {
    tenantId: text('tenant_id').notNull(),
    /** `openai` (any OpenAI-compatible endpoint), `anthropic`, `google`. */
    provider: text('provider').notNull(),
    /** The endpoint for `openai`; null for the provider's own. */
    baseUrl: text('base_url'),
    /** base64 of the 12-byte IV followed by the AES-GCM ciphertext of the key. */
    keyCiphertext: text('key_ciphertext').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.provider] })],
);

/**
 * Document embeddings of the knowledge-base retrievers, content-addressed (`<provider>/<model>/<sha256 of the
 * text>`), so every isolate builds its dense index without calling the embeddings provider again. Public
 * reference documents only: no tenant data.
 */
export const documentEmbeddings = sqliteTable('document_embeddings', {
  key: text('key').primaryKey(),
  /** base64url of the vector's little-endian float64 values. */
  vector: text('vector').notNull(),
  createdAt: text('created_at').notNull(),
});
