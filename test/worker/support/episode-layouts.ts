// An episode's storage rewritten as earlier versions of the episode object stored it, to test that an episode
// in flight across a change of layout resumes: a table per kind of row (values, messages, environment changes,
// turn records, external turns), its messages a step per row or, earlier still, one message per row.
import { dumpsPy, parsePyJson } from '../../../src/core/py/index.ts';
import type { PyInput, PyValue } from '../../../src/core/py/index.ts';

type Sql = DurableObjectStorage['sql'];

interface StepRow {
  readonly messages: readonly PyValue[];
  readonly changes: readonly (readonly [number, PyValue])[];
}

const pyText = (value: unknown): string => dumpsPy(value as PyInput);

const withoutRows = ({ rows: _rows, steps: _steps, ...cursor }: Record<string, unknown>): Record<string, unknown> => cursor;

/** The number at the end of a row key (`s/000000000003` → 3). */
const numberOf = (key: string): number => Number.parseInt(key.slice(2, 14), 10);

/**
 * Rewrites the current layout (one table `episode`) as the table-per-kind layout: messages a step per row, or
 * one message per row with `messagePerRow`; with `valuesInTable` false, no table of values is created and the
 * values are returned for the caller to place (the layout before that table).
 */
export const toTablesLayout = (sql: Sql, { messagePerRow = false, valuesInTable = true } = {}): Map<string, unknown> => {
  const rows = sql.exec<{ key: string; value: string }>(`SELECT key, value FROM episode ORDER BY key`).toArray();
  sql.exec(
    `CREATE TABLE messages (idx INTEGER PRIMARY KEY, body TEXT NOT NULL);
     CREATE TABLE env_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, slot INTEGER NOT NULL, body TEXT NOT NULL);
     CREATE TABLE turns (step INTEGER PRIMARY KEY, result TEXT NOT NULL, outcome TEXT NOT NULL);
     CREATE TABLE external_turns (n INTEGER PRIMARY KEY, step INTEGER NOT NULL, idx INTEGER NOT NULL);`,
  );
  if (valuesInTable) sql.exec(`CREATE TABLE episode_values (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  const values = new Map<string, unknown>();
  let idx = 0;
  const turns = new Map<number, { result?: string; outcome?: string }>();
  for (const { key, value } of rows) {
    if (key.startsWith('v/')) {
      const parsed = JSON.parse(value) as unknown;
      // The cursor had no count of step rows (nor of steps) then.
      values.set(key.slice(2), key === 'v/cursor' ? withoutRows(parsed as Record<string, unknown>) : parsed);
    } else if (key.startsWith('s/')) {
      const step = parsePyJson(value) as unknown as StepRow;
      if (messagePerRow) step.messages.forEach((m, i) => sql.exec(`INSERT INTO messages (idx, body) VALUES (?, ?)`, idx + i, pyText(m)));
      else if (step.messages.length > 0) sql.exec(`INSERT INTO messages (idx, body) VALUES (?, ?)`, idx, pyText(step.messages));
      idx += step.messages.length;
      for (const [slot, changes] of step.changes) sql.exec(`INSERT INTO env_changes (slot, body) VALUES (?, ?)`, slot, pyText(changes));
    } else if (key.startsWith('c/')) {
      // Nor a cursor after each step row: those rows are left out.
    } else if (key.startsWith('t/')) {
      const turn = turns.get(numberOf(key)) ?? {};
      turn[key.endsWith('/result') ? 'result' : 'outcome'] = value;
      turns.set(numberOf(key), turn);
    } else if (key.startsWith('x/')) {
      const { step, idx: at } = JSON.parse(value) as { step: number; idx: number };
      sql.exec(`INSERT INTO external_turns (n, step, idx) VALUES (?, ?, ?)`, numberOf(key), step, at);
    } else {
      throw new Error(`Unexpected row ${key}`);
    }
  }
  for (const [step, { result, outcome }] of turns) sql.exec(`INSERT INTO turns (step, result, outcome) VALUES (?, ?, ?)`, step, result!, outcome!);
  if (valuesInTable) {
    for (const [key, value] of values) sql.exec(`INSERT INTO episode_values (key, value) VALUES (?, ?)`, key, JSON.stringify(value));
  }
  sql.exec(`DROP TABLE episode`);
  return values;
};

/** The tables of either layout left in the storage. */
export const tablesOf = (sql: Sql): string[] =>
  sql
    .exec<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name`)
    .toArray()
    .map((row) => row.name);
