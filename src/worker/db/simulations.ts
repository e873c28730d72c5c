// Simulations in D1: written once per episode (a replayed write changes nothing), many in one call, read back
// as the engine's SimulationRun with its messages.
import { drizzle } from 'drizzle-orm/d1';
import { and, asc, eq, getTableColumns, gt, inArray, lte, sql } from 'drizzle-orm';
import { dumpsPy, parsePyJson } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { SimulationRunSchema } from '../../core/schemas/simulation.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import { MessageSchema } from '../../core/schemas/message.ts';
import type { Message } from '../../core/schemas/message.ts';
import { messages, runs, simulations } from './schema.ts';
import { chunks, chunksOfSize } from './chunks.ts';

// D1 binds at most 100 parameters per statement; a simulation row takes 10.
const SIMULATION_ROWS_PER_STATEMENT = 10;
/**
 * Message rows go to D1 as one JSON array per statement, a single parameter (D1 takes strings of at most 2 MB),
 * rather than 25 rows of 4 parameters a statement: a batch of simulations takes a few statements rather than
 * one or more per simulation (D1 limits the queries per invocation, and each costs its call more). The text is
 * ASCII (message bodies are Python-JSON text with non-ASCII escaped), so characters count as bytes.
 */
export const MESSAGE_JSON_CHARS = 1_000_000;
/** A message row's columns, in the table's order (the order `insert … select` takes them in), read from its JSON object. */
const MESSAGE_FROM_JSON = sql.join(
  Object.keys(getTableColumns(messages)).map((field) => sql.raw(`value ->> '$.${field}'`)),
  sql`, `,
);

const pyText = (value: unknown): string => dumpsPy(value as PyInput);

/** A finished simulation as its D1 rows (Python values as text), the form in which a run buffers it. */
export interface SimulationRows {
  readonly simulation: typeof simulations.$inferInsert;
  readonly messages: readonly { readonly idx: number; readonly role: string; readonly body: string }[];
}

/** The rows of a finished simulation of run `runId`, stamped as created at `createdAt`. */
export const simulationRows = (runId: string, simulation: SimulationRun, createdAt: string): SimulationRows => ({
  simulation: {
    id: simulation.id,
    runId,
    taskId: simulation.task_id,
    trial: simulation.trial ?? 0,
    terminationReason: simulation.termination_reason,
    reward: simulation.reward_info?.reward.value ?? null,
    agentCost: simulation.agent_cost?.value ?? null,
    duration: simulation.duration.value,
    record: pyText({ ...simulation, messages: null }),
    createdAt,
  },
  messages: (simulation.messages ?? []).map((message, idx) => ({ idx, role: message.role, body: pyText(message) })),
});

/**
 * Stores finished simulations and their messages in one transaction (one D1 call however many): a second write
 * of a simulation is a no-op.
 */
export const writeSimulations = async (d1: D1Database, written: readonly SimulationRows[]): Promise<void> => {
  const db = drizzle(d1);
  const simulationStatements = chunks(
    written.map((rows) => rows.simulation),
    SIMULATION_ROWS_PER_STATEMENT,
  ).map((rows) => db.insert(simulations).values(rows).onConflictDoNothing());
  const messageRows = written.flatMap(({ simulation, messages: list }) => list.map((m) => JSON.stringify({ simulationId: simulation.id, ...m })));
  // `WHERE true` keeps SQLite from reading the conflict clause's ON as a join constraint of the SELECT.
  const messageStatements = chunksOfSize(messageRows, (row) => row.length + 1, MESSAGE_JSON_CHARS).map((rows) =>
    db
      .insert(messages)
      .select(sql`SELECT ${MESSAGE_FROM_JSON} FROM json_each(${`[${rows.join(',')}]`}) WHERE true`)
      .onConflictDoNothing(),
  );
  const [first, ...rest] = [...simulationStatements, ...messageStatements];
  if (first !== undefined) await db.batch([first, ...rest]);
};

/** A simulation row's record, with `messages` still null. */
const recordOf = (text: string): SimulationRun => SimulationRunSchema.parse(parsePyJson(text));

const messagesBySimulation = async (d1: D1Database, ids: readonly string[]): Promise<Map<string, Message[]>> => {
  const byId = new Map<string, Message[]>(ids.map((id) => [id, []]));
  for (const part of chunks(ids, 90)) {
    const rows = await drizzle(d1)
      .select({ simulationId: messages.simulationId, body: messages.body })
      .from(messages)
      .where(inArray(messages.simulationId, part))
      .orderBy(asc(messages.simulationId), asc(messages.idx));
    for (const row of rows) byId.get(row.simulationId)!.push(MessageSchema.parse(parsePyJson(row.body)));
  }
  return byId;
};

export interface SimulationSummary {
  readonly seq: number;
  readonly id: string;
  readonly taskId: string;
  readonly trial: number;
  readonly terminationReason: string;
  readonly reward: number | null;
  readonly agentCost: number | null;
  readonly duration: number;
}

/** The run's simulations finished after `afterSeq` (up to `untilSeq`), in completion order, without records (counts and events). */
export const simulationSummaries = (d1: D1Database, runId: string, afterSeq = 0, untilSeq?: number): Promise<SimulationSummary[]> =>
  drizzle(d1)
    .select({
      seq: simulations.seq,
      id: simulations.id,
      taskId: simulations.taskId,
      trial: simulations.trial,
      terminationReason: simulations.terminationReason,
      reward: simulations.reward,
      agentCost: simulations.agentCost,
      duration: simulations.duration,
    })
    .from(simulations)
    .where(and(eq(simulations.runId, runId), gt(simulations.seq, afterSeq), untilSeq === undefined ? undefined : lte(simulations.seq, untilSeq)))
    .orderBy(asc(simulations.seq));

/** The run's simulations in completion order, without their messages (`messages` stays null). */
export const runSimulations = async (d1: D1Database, runId: string): Promise<SimulationRun[]> => {
  const rows = await drizzle(d1)
    .select({ record: simulations.record })
    .from(simulations)
    .where(eq(simulations.runId, runId))
    .orderBy(asc(simulations.seq));
  return rows.map((r) => recordOf(r.record));
};

/** Simulations read with their messages per page, so a large run is never held in memory at once. */
const SIMULATIONS_PER_PAGE = 100;

/** The run's simulations with their messages (or, for a light read, without: null), in completion order, a page at a time. */
export async function* runSimulationPages(d1: D1Database, runId: string, withMessages = true): AsyncGenerator<SimulationRun[]> {
  let afterSeq = 0;
  for (;;) {
    const rows = await drizzle(d1)
      .select({ seq: simulations.seq, record: simulations.record })
      .from(simulations)
      .where(and(eq(simulations.runId, runId), gt(simulations.seq, afterSeq)))
      .orderBy(asc(simulations.seq))
      .limit(SIMULATIONS_PER_PAGE);
    if (rows.length === 0) return;
    afterSeq = rows[rows.length - 1]!.seq;
    const records = rows.map((r) => recordOf(r.record));
    const byId = withMessages ? await messagesBySimulation(d1, records.map((r) => r.id)) : null;
    yield records.map((r) => ({ ...r, messages: byId === null ? null : (byId.get(r.id) ?? []) }));
    if (rows.length < SIMULATIONS_PER_PAGE) return;
  }
}

/** The simulation, when its run belongs to `tenant`. */
export const findSimulation = async (d1: D1Database, id: string, tenant: string): Promise<SimulationRun | null> => {
  const row = await drizzle(d1)
    .select({ record: simulations.record })
    .from(simulations)
    .innerJoin(runs, eq(runs.id, simulations.runId))
    .where(and(eq(simulations.id, id), eq(runs.tenantId, tenant)))
    .get();
  if (!row) return null;
  const byId = await messagesBySimulation(d1, [id]);
  return { ...recordOf(row.record), messages: byId.get(id) ?? [] };
};

/** The run a simulation of the tenant belongs to, or null. */
export const findSimulationRunId = async (d1: D1Database, id: string, tenant: string): Promise<string | null> =>
  (
    await drizzle(d1)
      .select({ runId: simulations.runId })
      .from(simulations)
      .innerJoin(runs, eq(runs.id, simulations.runId))
      .where(and(eq(simulations.id, id), eq(runs.tenantId, tenant)))
      .get()
  )?.runId ?? null;

/** The simulation of one episode of the run (task × trial), with its messages, once written. */
export const findEpisodeSimulation = async (d1: D1Database, runId: string, taskId: string, trial: number): Promise<SimulationRun | null> => {
  const row = await drizzle(d1)
    .select({ id: simulations.id, record: simulations.record })
    .from(simulations)
    .where(and(eq(simulations.runId, runId), eq(simulations.taskId, taskId), eq(simulations.trial, trial)))
    .get();
  if (!row) return null;
  const byId = await messagesBySimulation(d1, [row.id]);
  return { ...recordOf(row.record), messages: byId.get(row.id) ?? [] };
};
