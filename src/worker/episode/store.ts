// The episode's storage, written in proportion to each step: the trajectory as one row per step (the messages
// it added), the environment as one row per change set (against the state before the step), and a small
// cursor (routing, counters, the turn waited for). Resuming reads them back into the exact state. Rows are this
// code's own writes, so they are trusted on read (no schema parse).
import { dumpsPy, parsePyJson } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import type { Message } from '../../core/schemas/message.ts';
import type { EpisodeState } from '../../core/schemas/episode.ts';
import type { Task } from '../../core/schemas/task.ts';
import type { TurnRole } from '../../core/orchestrator/step.ts';
import { Environment, baseSlots } from '../../core/environment/environment.ts';
import type { EnvironmentOptions } from '../../core/environment/environment.ts';
import { diffFromBase } from '../../core/environment/db-state.ts';
import type { DbChange } from '../../core/environment/db-state.ts';
import type { AnyDomain, DomainData } from '../../core/environment/domain.ts';
import type { TurnOutcome } from './turn.ts';
import { episodeView } from '../../core/orchestrator/deps.ts';

/** The state without what lives in rows (trajectory, environment) or comes from the domain data (task). */
type CursorFields = Omit<EpisodeState, 'task' | 'trajectory' | 'environment'>;

interface Cursor {
  readonly fields: CursorFields;
  readonly messages: number;
  readonly agentSlot: number;
  readonly userSlot: number | null;
  /** The participant whose turn is waited for (at step `nextStep()`), or null. */
  readonly pending: TurnRole | null;
}

export interface LiveEpisode {
  state: EpisodeState;
  readonly environment: Environment;
  /** The DBs as last persisted, to store the next step's changes against. */
  persistedSlots: readonly unknown[];
  pending: TurnRole | null;
}

/**
 * Small values beside the rows: the launch (text), phase, attempt, when a failed attempt starts over, why the
 * last attempt failed when none is left, and when an external turn was asked for (its idle expiry counts from
 * then).
 */
const EPISODE_KEYS = ['launch', 'phase', 'attempt', 'retry_at', 'failure', 'asked_at'] as const;
type EpisodeKey = (typeof EPISODE_KEYS)[number];

const pyText = (value: unknown): string => dumpsPy(value as PyInput);

/** The part of a Durable Object's storage the episode uses (also met by a plain SQLite file in benchmarks). */
export interface EpisodeStorage {
  readonly sql: {
    exec<T extends Record<string, string | number | null>>(query: string, ...bindings: (string | number | null)[]): { toArray(): T[] } & Iterable<T>;
  };
}

/** Where the previous layout kept an episode's values, and how its launch text becomes the current one. */
export interface PreviousLayout {
  readonly kv: {
    get<T>(key: string): T | undefined;
    delete(key: string): boolean;
  };
  readonly launch: (text: string) => string;
}

type Sql = EpisodeStorage['sql'];

/**
 * Small values (JSON text in a table of the episode's own, created with the others: the runtime's key-value
 * table would be created on a first write of each episode, which costs more than all of its other writes), read
 * all at once with the tables' creation and then through a copy in memory: the object is their only writer, so
 * the copy stays exact, and a new episode's reads cost no query at all.
 */
class CachedValues {
  private readonly copy = new Map<string, unknown>();
  private readonly sql: Sql;

  constructor(sql: Sql, rows: Iterable<{ key: string; value: string }>) {
    this.sql = sql;
    for (const row of rows) this.copy.set(row.key, JSON.parse(row.value));
  }

  get<T>(key: string): T | undefined {
    return this.copy.get(key) as T | undefined;
  }

  put(key: string, value: unknown): void {
    this.sql.exec(`INSERT OR REPLACE INTO episode_values (key, value) VALUES (?, ?)`, key, JSON.stringify(value));
    this.copy.set(key, value);
  }

  /** An absent value is not deleted (each delete is a statement). */
  delete(key: string): void {
    if (!this.copy.has(key)) return;
    this.sql.exec(`DELETE FROM episode_values WHERE key = ?`, key);
    this.copy.delete(key);
  }

  /** Takes note that every value was deleted (by the caller, with its rows). */
  allDeleted(): void {
    this.copy.clear();
  }
}

export class EpisodeStore {
  private readonly sql: EpisodeStorage['sql'];
  private readonly values: CachedValues;
  /** The step index of the next turn (one past the last recorded turn), once read. */
  private next: number | null = null;

  constructor(storage: EpisodeStorage, previous?: PreviousLayout) {
    this.sql = storage.sql;
    this.values = new CachedValues(storage.sql, this.createTables());
    if (previous) this.moveLegacyValues(previous);
  }

  /**
   * Episodes stored before their values had a table of their own kept them in the runtime's key-value storage,
   * with the launch in its older form and the next turn's step as a value: they are moved here on first touch,
   * so an episode in flight across that change resumes. The new values are written before the old ones are
   * deleted, so a move cut short is done again in full. `next_step` is dropped: it was written with each turn
   * record as one past it, which is what the records give now.
   */
  private moveLegacyValues({ kv, launch }: PreviousLayout): void {
    // Every stored episode has a phase (a finished one nothing else).
    if (kv.get('phase') === undefined) return;
    for (const key of [...EPISODE_KEYS, 'cursor']) {
      const value = kv.get<unknown>(key);
      if (value !== undefined) this.values.put(key, key === 'launch' ? launch(value as string) : value);
    }
    for (const key of [...EPISODE_KEYS, 'cursor', 'next_step']) kv.delete(key);
  }

  /**
   * Creates the tables and reads the stored values, in one statement list: every episode object runs this
   * once, and one call costs far less than several.
   */
  private createTables(): Iterable<{ key: string; value: string }> {
    return this.sql.exec<{ key: string; value: string }>(
      `CREATE TABLE IF NOT EXISTS episode_values (key TEXT PRIMARY KEY, value TEXT NOT NULL);
       CREATE TABLE IF NOT EXISTS messages (idx INTEGER PRIMARY KEY, body TEXT NOT NULL);
       CREATE TABLE IF NOT EXISTS env_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, slot INTEGER NOT NULL, body TEXT NOT NULL);
       CREATE TABLE IF NOT EXISTS turns (step INTEGER PRIMARY KEY, result TEXT NOT NULL, outcome TEXT NOT NULL);
       -- an external participant counts its own turns (0, 1, …): each maps to the turn's step and its message's index
       CREATE TABLE IF NOT EXISTS external_turns (n INTEGER PRIMARY KEY, step INTEGER NOT NULL, idx INTEGER NOT NULL);
       SELECT key, value FROM episode_values;`,
    );
  }

  get<T>(key: EpisodeKey): T | undefined {
    return this.values.get<T>(key);
  }

  put(key: EpisodeKey, value: unknown): void {
    this.values.put(key, value);
  }

  /** An episode never started (or reset) has no turn records: its next step is 0, without a query. */
  assumeEmpty(): void {
    this.next = 0;
  }

  /** The stored state's counters and routing, without reading the trajectory. */
  cursorFields(): CursorFields | null {
    return this.values.get<Cursor>('cursor')?.fields ?? null;
  }

  /** Stores what changed since the last save: new messages, environment changes, the cursor. */
  save(live: LiveEpisode): void {
    const { state, environment } = live;
    // The step's new messages as one row, keyed by the index of its first: a statement per step, not per message
    // (each statement costs the runtime more than the text it writes).
    const previous = this.values.get<Cursor>('cursor')?.messages ?? 0;
    if (state.trajectory.length > previous) {
      this.sql.exec(`INSERT OR REPLACE INTO messages (idx, body) VALUES (?, ?)`, previous, pyText(state.trajectory.slice(previous)));
    }
    const slots = environment.state.slots;
    slots.forEach((db, slot) => {
      const changes = diffFromBase(live.persistedSlots[slot], db);
      if (changes.length > 0) this.sql.exec(`INSERT INTO env_changes (slot, body) VALUES (?, ?)`, slot, pyText(changes));
    });
    live.persistedSlots = slots;
    const { task: _task, trajectory: _trajectory, environment: _environment, ...fields } = state;
    const cursor: Cursor = {
      fields,
      messages: state.trajectory.length,
      agentSlot: environment.state.agentSlot,
      userSlot: environment.state.userSlot,
      pending: live.pending,
    };
    this.values.put('cursor', cursor);
  }

  /** The stored episode of the current attempt, or null before it is initialized. */
  load(task: Task, domain: AnyDomain, data: DomainData, options: EnvironmentOptions): LiveEpisode | null {
    const cursor = this.values.get<Cursor>('cursor');
    if (cursor === undefined) return null;
    const trajectory: Message[] = [];
    for (const row of this.sql.exec<{ body: string }>(`SELECT body FROM messages WHERE idx < ? ORDER BY idx`, cursor.messages)) {
      const body = parsePyJson(row.body);
      // A row holds a step's messages; rows stored before that hold one message each.
      if (Array.isArray(body)) trajectory.push(...(body as unknown as Message[]));
      else trajectory.push(body as unknown as Message);
    }
    const slots: DbChange[][] = baseSlots(data).map(() => []);
    for (const row of this.sql.exec<{ slot: number; body: string }>(`SELECT slot, body FROM env_changes ORDER BY seq`)) {
      slots[row.slot]!.push(...(parsePyJson(row.body) as unknown as DbChange[]));
    }
    // The episode's own view of its domain (toolkit and policy of its retrieval configuration and task).
    const view = episodeView({ ...cursor.fields, task }, { domain, data });
    const environment = Environment.restore(view.domain, view.data, options, { slots, agentSlot: cursor.agentSlot, userSlot: cursor.userSlot });
    const state: EpisodeState = { ...cursor.fields, task, trajectory, environment: environment.changes() };
    return { state, environment, persistedSlots: environment.state.slots, pending: cursor.pending };
  }

  /**
   * Forgets everything: rows and small values. Deleting rows keeps the database file, which is much cheaper
   * than `deleteAll` (that closes, unlinks and recreates the object's SQLite file).
   */
  clear(): void {
    this.sql.exec(
      `DELETE FROM messages; DELETE FROM env_changes; DELETE FROM turns; DELETE FROM external_turns; DELETE FROM episode_values;`,
    );
    this.values.allDeleted();
    this.next = 0;
  }

  /** Forgets the attempt's episode (a new attempt starts from scratch); the turn records stay. */
  clearEpisode(): void {
    this.sql.exec(`DELETE FROM messages`);
    this.sql.exec(`DELETE FROM env_changes`);
    this.values.delete('cursor');
  }

  recordTurn(step: number, result: string, outcome: TurnOutcome): void {
    this.sql.exec(`INSERT INTO turns (step, result, outcome) VALUES (?, ?, ?)`, step, result, JSON.stringify(outcome));
    this.next = step + 1;
  }

  /**
   * The step index of the turn waited for: one past the last recorded turn. It increases with every turn and
   * is never reused, not across attempts either (their turn records stay); it comes from the records, so no
   * counter of its own is written per step.
   */
  nextStep(): number {
    this.next ??= (this.sql.exec<{ last: number | null }>(`SELECT max(step) AS last FROM turns`).toArray()[0]?.last ?? -1) + 1;
    return this.next;
  }

  /** How many turns the external participant has had applied. */
  externalTurnCount(): number {
    return this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM external_turns`).toArray()[0]!.n;
  }

  externalTurn(n: number): { step: number; idx: number } | null {
    return this.sql.exec<{ step: number; idx: number }>(`SELECT step, idx FROM external_turns WHERE n = ?`, n).toArray()[0] ?? null;
  }

  recordExternalTurn(n: number, step: number, idx: number): void {
    this.sql.exec(`INSERT INTO external_turns (n, step, idx) VALUES (?, ?, ?)`, n, step, idx);
  }

  turn(step: number): { result: string; outcome: TurnOutcome } | null {
    const row = this.sql.exec<{ result: string; outcome: string }>(`SELECT result, outcome FROM turns WHERE step = ?`, step).toArray()[0];
    return row ? { result: row.result, outcome: JSON.parse(row.outcome) as TurnOutcome } : null;
  }
}
