// The episode's storage, written in proportion to each step, as rows of one key-ordered table: a row per saved
// step (the messages it added and the environment's changes against the state before it) with the cursor as it
// stood after it (so a fork copies the rows up to any step), a row per turn
// record, a row per external turn, and small values (the cursor: routing, counters, the turn waited for).
// Resuming reads them back into the exact state. One table rather than one per kind: a new episode object
// creates it in its first statement, and every table more (with its pages written at the first commit) cost
// more per episode than all of its step rows. Rows are this code's own writes, so they are trusted on read (no
// schema parse).
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
import type { TurnOutcome } from '../../core/episode/turn.ts';
import type { LiveEpisode } from '../../core/episode/machine.ts';
import { episodeView } from '../../core/orchestrator/deps.ts';

/** The state without what lives in rows (trajectory, environment) or comes from the domain data (task). */
type CursorFields = Omit<EpisodeState, 'task' | 'trajectory' | 'environment'>;

interface Cursor {
  readonly fields: CursorFields;
  readonly messages: number;
  /** How many step rows are written (the next one's number); absent in a cursor stored before step rows. */
  readonly rows?: number;
  readonly agentSlot: number;
  readonly userSlot: number | null;
  /** The participant whose turn is waited for (at step `nextStep()`), or null. */
  readonly pending: TurnRole | null;
  /**
   * The steps applied: the participant messages after the opening (see core/episode/fork.ts); absent in a cursor
   * stored before steps were counted.
   */
  readonly steps?: number;
}

/**
 * An episode's step rows up to one of its steps, as stored, with the cursor as it stood after each of them: what a
 * fork of it writes into its own storage, unchanged but for its own simulation id, trial, seed and start.
 */
export interface StoredRows {
  /** The step rows' texts, in order. */
  readonly rows: readonly string[];
  /** The cursor (JSON text) after each row; the last one is the state forked. */
  readonly cursors: readonly string[];
}


/**
 * Small values beside the rows: the launch (text), phase, attempt, when a failed attempt starts over, why the
 * last attempt failed when none is left (and whether grading raised it), when an external turn was asked for (its idle expiry counts from
 * then), and a finished episode's final external turn.
 */
const EPISODE_KEYS = ['launch', 'phase', 'attempt', 'retry_at', 'failure', 'failure_stage', 'asked_at', 'final_turn'] as const;
type EpisodeKey = (typeof EPISODE_KEYS)[number];

const pyText = (value: unknown): string => dumpsPy(value as PyInput);

/** The part of a Durable Object's storage the episode uses (also met by a plain SQLite file in benchmarks). */
export interface EpisodeStorage {
  readonly sql: {
    exec<T extends Record<string, string | number | null>>(query: string, ...bindings: (string | number | null)[]): { toArray(): T[] } & Iterable<T>;
  };
}

/** Where the first layout kept an episode's values, and how its launch text becomes the current one. */
export interface KeyValueLayout {
  readonly kv: {
    get<T>(key: string): T | undefined;
    delete(key: string): boolean;
  };
  readonly launch: (text: string) => string;
}

type Sql = EpisodeStorage['sql'];

/**
 * The kinds of rows, by key prefix: values (`v/phase`), step rows (`s/<n>`) and the cursor after each (`c/<n>`), turn
 * records (`t/<step>/result`, `t/<step>/outcome`) and external turns (`x/<n>`). Numbers are zero-padded, so key
 * order is number order.
 */
const VALUE = 'v/';
const STEP = 's/';
/** The cursor as it stood after each step row (`c/<n>`): the state at each step, which a fork starts from. */
const AT = 'c/';
const TURN = 't/';
const EXTERNAL = 'x/';
const numbered = (prefix: string, n: number): string => prefix + String(n).padStart(12, '0');
/** The bound just past every key of a prefix (`/` sorts right before `0`). */
const pastAll = (prefix: string): string => prefix.slice(0, -1) + '0';

/** A saved step: the messages it added and the environment's changes, each for its slot, in order. */
interface StepRow {
  readonly messages: readonly Message[];
  readonly changes: readonly (readonly [slot: number, changes: readonly DbChange[]])[];
}

/** The tables of the previous layout (one per kind of row), moved into the current one on first touch. */
const PREVIOUS_TABLES = ['episode_values', 'messages', 'env_changes', 'turns', 'external_turns'] as const;

/** Writes rows, new or replacing, in one statement (each statement costs the runtime more than the text it writes). */
const writeRows = (sql: Sql, rows: readonly (readonly [key: string, value: string])[]): void => {
  sql.exec(`INSERT OR REPLACE INTO episode (key, value) VALUES ${rows.map(() => '(?, ?)').join(', ')}`, ...rows.flat());
};

/** Rows written by one statement at most when many are (the runtime bounds a statement's bound values). */
const ROWS_PER_STATEMENT = 40;

/** Participant messages: one per applied step. */
const stepsIn = (messages: readonly Message[]): number => messages.filter((m) => m.role === 'assistant' || m.role === 'user').length;

/**
 * Small values (JSON text), read all at once with the table's creation and then through a copy in memory: the
 * object is their only writer, so the copy stays exact, and a new episode's reads cost no query at all.
 */
class CachedValues {
  private readonly copy = new Map<string, unknown>();
  private readonly sql: Sql;

  constructor(sql: Sql, rows: Iterable<{ key: string; value: string }>) {
    this.sql = sql;
    for (const row of rows) this.copy.set(row.key.slice(VALUE.length), JSON.parse(row.value));
  }

  get<T>(key: string): T | undefined {
    return this.copy.get(key) as T | undefined;
  }

  /** Stores the value, with other rows in the same statement when given. */
  put(key: string, value: unknown, rows: readonly (readonly [string, string])[] = []): void {
    writeRows(this.sql, [...rows, [VALUE + key, JSON.stringify(value)]]);
    this.copy.set(key, value);
  }

  /** An absent value is not deleted (each delete is a statement). */
  delete(key: string): void {
    if (!this.copy.has(key)) return;
    this.sql.exec(`DELETE FROM episode WHERE key = ?`, VALUE + key);
    this.copy.delete(key);
  }

  /** Takes note that every value was deleted (by the caller, with its rows). */
  allDeleted(): void {
    this.copy.clear();
  }
}

/** What an episode's state adds to the stored rows: its messages from `fromMessage` on, its DBs' changes since last persisted. */
const stepRowOf = ({ state, environment, persistedSlots }: LiveEpisode, fromMessage: number): StepRow => ({
  messages: state.trajectory.slice(fromMessage),
  changes: environment.state.slots.map((db, slot) => [slot, diffFromBase(persistedSlots[slot], db)] as const).filter(([, changes]) => changes.length > 0),
});

const cursorOf = ({ state, environment, pending }: LiveEpisode, rows: number, steps: number | undefined): Cursor => {
  const { task: _task, trajectory: _trajectory, environment: _environment, ...fields } = state;
  return {
    fields,
    messages: state.trajectory.length,
    rows,
    agentSlot: environment.state.agentSlot,
    userSlot: environment.state.userSlot,
    pending,
    ...(steps === undefined ? {} : { steps }),
  };
};

/** The rows of an episode built elsewhere (a fork rebuilt by replay) at step `steps`, never saved: one step row. */
export const storedRowsOf = (live: LiveEpisode, steps: number): StoredRows => ({
  rows: [pyText(stepRowOf(live, 0))],
  cursors: [JSON.stringify(cursorOf(live, 1, steps))],
});

export class EpisodeStore {
  private readonly sql: EpisodeStorage['sql'];
  private readonly values: CachedValues;
  /** The step index of the next turn (one past the last recorded turn), once read. */
  private next: number | null = null;
  /** Told after every write: whoever waits for the episode to change reads it again. */
  private readonly changed: () => void;

  constructor(storage: EpisodeStorage, keyValue?: KeyValueLayout, changed: () => void = () => undefined) {
    this.sql = storage.sql;
    this.changed = changed;
    const rows = this.createTable();
    this.values = new CachedValues(storage.sql, rows.filter((row) => row.key !== ''));
    if (keyValue) this.moveLegacyValues(keyValue);
    const tables = new Set(rows.filter((row) => row.key === '').map((row) => row.value));
    if (tables.size > 0) this.moveTables(tables);
  }

  /**
   * Creates the table and reads the stored values and which tables of the previous layout are left (as rows
   * with an empty key), in one statement list: every episode object runs this once, and one call costs far
   * less than several.
   */
  private createTable(): { key: string; value: string }[] {
    return this.sql
      .exec<{ key: string; value: string }>(
        `CREATE TABLE IF NOT EXISTS episode (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
         SELECT key, value FROM episode WHERE key >= '${VALUE}' AND key < '${pastAll(VALUE)}'
         UNION ALL SELECT '', name FROM sqlite_master WHERE type = 'table' AND name IN (${PREVIOUS_TABLES.map((t) => `'${t}'`).join(', ')});`,
      )
      .toArray();
  }

  /**
   * Episodes stored before their values had a table of their own kept them in the runtime's key-value storage,
   * with the launch in its older form and the next turn's step as a value: they are moved here on first touch,
   * so an episode in flight across that change resumes. The new values are written before the old ones are
   * deleted, so a move cut short is done again in full. `next_step` is dropped: it was written with each turn
   * record as one past it, which is what the records give now.
   */
  private moveLegacyValues({ kv, launch }: KeyValueLayout): void {
    // Every stored episode has a phase (a finished one nothing else).
    if (kv.get('phase') === undefined) return;
    for (const key of [...EPISODE_KEYS, 'cursor']) {
      const value = kv.get<unknown>(key);
      if (value !== undefined) this.values.put(key, key === 'launch' ? launch(value as string) : value);
    }
    for (const key of [...EPISODE_KEYS, 'cursor', 'next_step']) kv.delete(key);
  }

  /**
   * Episodes stored before this table kept each kind of row in a table of its own: their rows are moved here
   * on first touch (the trajectory and the environment's changes as one step row) and those tables dropped,
   * all in the object's one implicit transaction, so an episode in flight across that change resumes.
   */
  private moveTables(tables: ReadonlySet<string>): void {
    const select = <T extends Record<string, string | number | null>>(table: (typeof PREVIOUS_TABLES)[number], query: string, ...bindings: number[]): T[] =>
      tables.has(table) ? this.sql.exec<T>(query, ...bindings).toArray() : [];
    for (const row of select<{ key: string; value: string }>('episode_values', `SELECT key, value FROM episode_values`)) {
      this.values.put(row.key, JSON.parse(row.value));
    }
    const cursor = this.values.get<Cursor>('cursor');
    if (cursor !== undefined && cursor.rows === undefined) {
      const messages: Message[] = [];
      // Rows held a step's messages, or (earlier) one message each.
      for (const row of select<{ body: string }>('messages', `SELECT body FROM messages WHERE idx < ? ORDER BY idx`, cursor.messages)) {
        const body = parsePyJson(row.body);
        if (Array.isArray(body)) messages.push(...(body as unknown as Message[]));
        else messages.push(body as unknown as Message);
      }
      const changes = select<{ slot: number; body: string }>('env_changes', `SELECT slot, body FROM env_changes ORDER BY seq`).map(
        (row) => [row.slot, parsePyJson(row.body) as unknown as DbChange[]] as const,
      );
      const step: StepRow = { messages, changes };
      this.values.put('cursor', { ...cursor, rows: 1 } satisfies Cursor, [[numbered(STEP, 0), pyText(step)]]);
    }
    for (const row of select<{ step: number; result: string; outcome: string }>('turns', `SELECT step, result, outcome FROM turns`)) {
      this.writeTurn(row.step, row.result, row.outcome);
    }
    for (const row of select<{ n: number; step: number; idx: number }>('external_turns', `SELECT n, step, idx FROM external_turns`)) {
      this.recordExternalTurn(row.n, row.step, row.idx);
    }
    for (const table of tables) this.sql.exec(`DROP TABLE ${table}`);
  }

  get<T>(key: EpisodeKey): T | undefined {
    return this.values.get<T>(key);
  }

  put(key: EpisodeKey, value: unknown): void {
    this.values.put(key, value);
    this.changed();
  }

  /** An episode never started (or reset) has no turn records: its next step is 0, without a query. */
  assumeEmpty(): void {
    this.next = 0;
  }

  /** The stored state's counters and routing, without reading the trajectory. */
  cursorFields(): CursorFields | null {
    return this.values.get<Cursor>('cursor')?.fields ?? null;
  }

  /** Whether the stored episode is done and the turn it waits for, from its cursor (no row read); null before it is initialized. */
  standing(): { done: boolean; pending: TurnRole | null } | null {
    const cursor = this.values.get<Cursor>('cursor');
    return cursor === undefined ? null : { done: cursor.fields.done, pending: cursor.pending };
  }

  /** Stores what changed since the last save (new messages, environment changes) as a step row, with the cursor: one statement. */
  save(live: LiveEpisode): void {
    const stored = this.values.get<Cursor>('cursor');
    const step = stepRowOf(live, stored?.messages ?? 0);
    live.persistedSlots = live.environment.state.slots;
    const written = stored?.rows ?? 0;
    const stepped = step.messages.length > 0 || step.changes.length > 0;
    // The first save is the opening's: no step.
    const steps = stored === undefined ? 0 : stored.steps === undefined ? undefined : stored.steps + stepsIn(step.messages);
    const cursor = cursorOf(live, written + (stepped ? 1 : 0), steps);
    const rows: [string, string][] = stepped ? [[numbered(STEP, written), pyText(step)], [numbered(AT, written), JSON.stringify(cursor)]] : [];
    this.values.put('cursor', cursor, rows);
    this.changed();
  }

  /**
   * The rows up to the state that waited for step `atStep` (see core/episode/fork.ts): `beyond` when the episode
   * has not reached it, null when its rows cannot say (stored before steps were counted, or an opening that
   * stored no row).
   */
  rowsAt(atStep: number): { kind: 'rows'; rows: StoredRows } | { kind: 'beyond'; steps: number } | null {
    const cursor = this.values.get<Cursor>('cursor');
    if (cursor?.steps === undefined) return null;
    if (atStep > cursor.steps) return { kind: 'beyond', steps: cursor.steps };
    const cursors = this.sql.exec<{ value: string }>(`SELECT value FROM episode WHERE key >= ? AND key < ? ORDER BY key`, AT, numbered(AT, cursor.rows ?? 0)).toArray().map((row) => row.value);
    const last = cursors.findLastIndex((text) => (JSON.parse(text) as Cursor).steps === atStep);
    // Every step row has its cursor, so row n is the n-th: rows 0 … last make that state.
    if (last === -1 || cursors.length !== cursor.rows) return null;
    const rows = this.sql.exec<{ value: string }>(`SELECT value FROM episode WHERE key >= ? AND key <= ? ORDER BY key`, STEP, numbered(STEP, last)).toArray().map((row) => row.value);
    return { kind: 'rows', rows: { rows, cursors: cursors.slice(0, last + 1) } };
  }

  /** Starts the episode as a copy of another's rows (a fork), with its own values of `own` in the state. */
  copy({ rows, cursors }: StoredRows, own: Partial<CursorFields>): void {
    const written: [string, string][] = rows.flatMap((text, n) => [[numbered(STEP, n), text], [numbered(AT, n), cursors[n]!]] as [string, string][]);
    for (let i = 0; i < written.length; i += ROWS_PER_STATEMENT) writeRows(this.sql, written.slice(i, i + ROWS_PER_STATEMENT));
    const at = JSON.parse(cursors.at(-1)!) as Cursor;
    this.values.put('cursor', { ...at, fields: { ...at.fields, ...own } } satisfies Cursor);
    this.changed();
  }

  /** The stored episode of the current attempt, or null before it is initialized. */
  load(task: Task, domain: AnyDomain, data: DomainData, options: EnvironmentOptions): LiveEpisode | null {
    const cursor = this.values.get<Cursor>('cursor');
    if (cursor === undefined) return null;
    const trajectory: Message[] = [];
    const slots: DbChange[][] = baseSlots(data).map(() => []);
    const rows = this.sql.exec<{ value: string }>(
      `SELECT value FROM episode WHERE key >= ? AND key < ? ORDER BY key`,
      STEP,
      numbered(STEP, cursor.rows ?? 0),
    );
    for (const row of rows) {
      const step = parsePyJson(row.value) as unknown as StepRow;
      trajectory.push(...step.messages);
      for (const [slot, changes] of step.changes) slots[slot]!.push(...changes);
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
    this.sql.exec(`DELETE FROM episode`);
    this.values.allDeleted();
    this.next = 0;
    this.changed();
  }

  /** Forgets the attempt's episode (a new attempt starts from scratch); the turn records stay. */
  clearEpisode(): void {
    this.sql.exec(`DELETE FROM episode WHERE (key >= ? AND key < ?) OR (key >= ? AND key < ?)`, STEP, pastAll(STEP), AT, pastAll(AT));
    this.values.delete('cursor');
    this.changed();
  }

  recordTurn(step: number, result: string, outcome: TurnOutcome): void {
    this.writeTurn(step, result, JSON.stringify(outcome));
    this.next = step + 1;
    this.changed();
  }

  private writeTurn(step: number, result: string, outcome: string): void {
    const key = numbered(TURN, step);
    writeRows(this.sql, [[`${key}/outcome`, outcome], [`${key}/result`, result]]);
  }

  /**
   * The step index of the turn waited for: one past the last recorded turn. It increases with every turn and
   * is never reused, not across attempts either (their turn records stay); it comes from the records, so no
   * counter of its own is written per step.
   */
  nextStep(): number {
    if (this.next === null) {
      const last = this.sql.exec<{ key: string }>(`SELECT key FROM episode WHERE key >= ? AND key < ? ORDER BY key DESC LIMIT 1`, TURN, pastAll(TURN)).toArray()[0];
      this.next = last === undefined ? 0 : Number.parseInt(last.key.slice(TURN.length), 10) + 1;
    }
    return this.next;
  }

  /** How many turns the external participant has had applied. */
  externalTurnCount(): number {
    return this.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM episode WHERE key >= ? AND key < ?`, EXTERNAL, pastAll(EXTERNAL)).toArray()[0]!.n;
  }

  externalTurn(n: number): { step: number; idx: number } | null {
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM episode WHERE key = ?`, numbered(EXTERNAL, n)).toArray()[0];
    return row ? (JSON.parse(row.value) as { step: number; idx: number }) : null;
  }

  recordExternalTurn(n: number, step: number, idx: number): void {
    writeRows(this.sql, [[numbered(EXTERNAL, n), JSON.stringify({ step, idx })]]);
    this.changed();
  }

  turn(step: number): { result: string; outcome: TurnOutcome } | null {
    const key = numbered(TURN, step);
    const rows = this.sql.exec<{ key: string; value: string }>(`SELECT key, value FROM episode WHERE key IN (?, ?)`, `${key}/outcome`, `${key}/result`).toArray();
    const outcome = rows.find((row) => row.key.endsWith('/outcome'));
    const result = rows.find((row) => row.key.endsWith('/result'));
    return outcome && result ? { result: result.value, outcome: JSON.parse(outcome.value) as TurnOutcome } : null;
  }
}
