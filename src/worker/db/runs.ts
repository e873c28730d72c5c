// Runs in D1: creation (with its Idempotency-Key), status changes and reads.
import { drizzle } from 'drizzle-orm/d1';
import { and, asc, desc, eq, lt, or, sql } from 'drizzle-orm';
import { dumpsPy, parsePyJson } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { RecordedRunConfigSchema } from '../../core/schemas/run-config.ts';
import { withoutCredentials } from '../../core/schemas/llm-args.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { RunListFilter, RunStatus, RunStopReason } from '../../api/index.ts';
import { runs } from './schema.ts';

export type RunRow = typeof runs.$inferSelect;

export const encodeConfig = (config: RunConfig): string => dumpsPy(config as unknown as PyInput);
const LLM_ARGS_FIELDS = ['llm_args_agent', 'llm_args_user', 'llm_args_judge'] as const;

/** A stored configuration; llm_args stored before credentials were refused in them are read without those. */
export const decodeConfig = (text: string): RunConfig => {
  const stored = parsePyJson(text) as Record<string, unknown>;
  const args = Object.fromEntries(LLM_ARGS_FIELDS.filter((field) => field in stored).map((field) => [field, withoutCredentials(stored[field])]));
  return RecordedRunConfigSchema.parse({ ...stored, ...args });
};

/** Inserts the run; returns false when its Idempotency-Key is already taken. */
export const insertRun = async (d1: D1Database, row: typeof runs.$inferInsert): Promise<boolean> => {
  const inserted = await drizzle(d1).insert(runs).values(row).onConflictDoNothing().returning({ id: runs.id });
  return inserted.length === 1;
};

/** The run, when it belongs to `tenant` (without a tenant: any run, for the engine's own bookkeeping). */
export const findRun = async (d1: D1Database, id: string, tenant?: string): Promise<RunRow | null> =>
  (await drizzle(d1)
    .select()
    .from(runs)
    .where(tenant === undefined ? eq(runs.id, id) : and(eq(runs.id, id), eq(runs.tenantId, tenant)))
    .get()) ?? null;

export const findRunByIdempotencyKey = async (d1: D1Database, key: string): Promise<RunRow | null> =>
  (await drizzle(d1).select().from(runs).where(eq(runs.idempotencyKey, key)).get()) ?? null;

/**
 * The tenant's newest runs, optionally only those of a status, a domain, a retrieval configuration, or with a
 * model as agent or user.
 */
export const listRuns = (d1: D1Database, tenant: string, limit: number, filter: RunListFilter = {}): Promise<RunRow[]> => {
  const field = (name: string) => sql`json_extract(${runs.config}, ${`$.${name}`})`;
  return drizzle(d1)
    .select()
    .from(runs)
    .where(
      and(
        eq(runs.tenantId, tenant),
        filter.status === undefined ? undefined : eq(runs.status, filter.status),
        filter.domain === undefined ? undefined : sql`${field('domain')} = ${filter.domain}`,
        filter.model === undefined ? undefined : or(sql`${field('llm_agent')} = ${filter.model}`, sql`${field('llm_user')} = ${filter.model}`),
        filter.retrieval_config === undefined ? undefined : sql`${field('retrieval_config')} = ${filter.retrieval_config}`,
      ),
    )
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(limit);
};

/** Moves the run to `status` (a `failed` one with its reason); with `from`, only a run currently in that status moves. */
export const setRunStatus = async (d1: D1Database, id: string, status: RunStatus, from?: RunStatus, error?: string): Promise<void> => {
  await drizzle(d1)
    .update(runs)
    .set({ status, updatedAt: new Date().toISOString(), ...(error === undefined ? {} : { error }) })
    .where(from === undefined ? eq(runs.id, id) : and(eq(runs.id, id), eq(runs.status, from)));
};

/** Records why a run adding rounds stops adding them (with what refused the last round, when something did). */
export const setStopReason = async (d1: D1Database, id: string, reason: RunStopReason, error?: string): Promise<void> => {
  await drizzle(d1)
    .update(runs)
    .set({ stopReason: reason, updatedAt: new Date().toISOString(), ...(error === undefined ? {} : { error }) })
    .where(eq(runs.id, id));
};

/** Runs still `running` that were created before `beforeIso`, oldest first. */
export const staleRunningRuns = (d1: D1Database, beforeIso: string, limit: number): Promise<RunRow[]> =>
  drizzle(d1)
    .select()
    .from(runs)
    .where(and(eq(runs.status, 'running'), lt(runs.createdAt, beforeIso)))
    .orderBy(asc(runs.createdAt))
    .limit(limit);
