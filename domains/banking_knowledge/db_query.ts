// Constraint queries and record writes on the transactional DB, with the reference's exact tool texts
// (reference: src/tau2/domains/banking_knowledge/db_query.py). Tools write only through addToDb and
// updateRecordInDb, so records keep Python's insertion order in either dict representation.
import {
  PyError,
  PyJsonDecodeError,
  compare,
  dictEntries,
  dictGet,
  dictHasKey,
  isIndexLikeKey,
  isPyDict,
  isPyError,
  isPyFloat,
  parsePyJson,
  pyEquals,
  pyStr,
  pyTypeName,
  pyRepr,
} from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import type { PyDict, TableName, TransactionalDB } from './data_model.ts';

/** The tables a query can name, in the order `_load_databases` lists them (shown in "Available: [...]"). */
export const QUERYABLE_TABLES: readonly TableName[] = [
  'users',
  'accounts',
  'referrals',
  'credit_card_applications',
  'user_discoverable_tools',
  'user_discoverable_tool_calls',
  'agent_discoverable_tools',
  'task_config',
  'verification_history',
  'credit_card_transaction_history',
  'cash_back_disputes',
  'bank_account_transaction_history',
  'credit_card_accounts',
  'human_transfer_requests',
  'transaction_disputes',
  'credit_card_orders',
  'credit_card_closure_reasons',
  'credit_card_account_flags',
  'debit_cards',
  'debit_card_orders',
  'debit_card_disputes',
  'credit_limit_increase_requests',
  'payment_history',
];

/** The module path Python prints in errors about the query functions' own call. */
const QUALNAME = 'tau2.domains.banking_knowledge.db_query';

const isQueryable = (name: string): name is TableName => (QUERYABLE_TABLES as readonly string[]).includes(name);

/** A record: a dict of field values. */
export type DbRecord = PyDict;

/** `record.get(field)`. */
export const field = (record: DbRecord, name: string): PyValue | undefined => dictGet(record, name);

/** The records of a table as `[id, record]` pairs in insertion order. */
export const tableRecords = (db: TransactionalDB, name: TableName): [string, DbRecord][] =>
  dictEntries(db[name].data).map(([id, record]) => [id, record as DbRecord]);

/** `table.data.get(record_id)` (undefined when absent or when the value is not a dict). */
export const getRecord = (db: TransactionalDB, name: TableName, recordId: string): DbRecord | undefined => {
  const record = dictGet(db[name].data, recordId);
  return isPyDict(record) ? (record as DbRecord) : undefined;
};

/**
 * `key in db.<table>.data` for a raw argument: a dict, list or other unhashable key raises Python's TypeError
 * (as a PyError, so the discoverable-tool wrappers report it as "Invalid arguments"); other non-str keys are absent.
 */
export const isRecordId = (db: TransactionalDB, name: TableName, key: PyValue | undefined): key is string => {
  if (Array.isArray(key) || isPyDict(key)) throw new PyError('TypeError', `unhashable type: '${pyTypeName(key)}'`);
  return typeof key === 'string' && dictHasKey(db[name].data, key);
};

/** `record_id in table.data`. */
export const hasRecord = (db: TransactionalDB, name: TableName, recordId: string): boolean =>
  dictHasKey(db[name].data, recordId);

/** `d[key] = value` on a dict in either representation; an index-like key turns a plain object into a Map. */
export const setItem = (d: PyDict, key: string, value: PyValue): PyDict => {
  if (d instanceof Map) {
    d.set(key, value);
    return d;
  }
  if (isIndexLikeKey(key) && !Object.hasOwn(d, key)) return new Map([...Object.entries(d), [key, value]]);
  d[key] = value;
  return d;
};

const setRecord = (db: TransactionalDB, name: TableName, recordId: string, record: PyValue): void => {
  const data = db[name].data;
  const next = setItem(data, recordId, record);
  if (next !== data) db[name].data = next;
};

type Operator = (actual: PyValue | undefined, expected: PyValue) => boolean;

/** `b in a` with Python's TypeErrors (thrown as PyError, which a failed comparison turns into "no match"). */
const contains = (container: PyValue | undefined, item: PyValue): boolean => {
  if (typeof container === 'string') {
    if (typeof item !== 'string') {
      throw new PyError('TypeError', `'in <string>' requires string as left operand, not ${pyTypeName(item)}`);
    }
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((x) => pyEquals(x, item));
  if (isPyDict(container)) return typeof item === 'string' && dictHasKey(container, item);
  throw new PyError('TypeError', `argument of type '${pyTypeName(container)}' is not iterable`);
};

const ordered = (test: (c: number) => boolean): Operator => (a, b) => test(compare(a ?? null, b));

const OPERATORS: Readonly<Record<string, Operator>> = {
  eq: (a, b) => pyEquals(a ?? null, b),
  ne: (a, b) => !pyEquals(a ?? null, b),
  gt: ordered((c) => c > 0),
  gte: ordered((c) => c >= 0),
  lt: ordered((c) => c < 0),
  lte: ordered((c) => c <= 0),
  contains: (a, b) => (a === null || a === undefined ? false : contains(a, b)),
  startswith: (a, b) => (a === null || a === undefined ? false : pyStr(a).startsWith(pyStr(b))),
  endswith: (a, b) => (a === null || a === undefined ? false : pyStr(a).endsWith(pyStr(b))),
  in: (a, b) => contains(b, a ?? null),
  nin: (a, b) => !contains(b, a ?? null),
};

/** `_parse_constraint`: "amount__gt" → field "amount", operator "gt"; unknown operators compare with `==`. */
const parseConstraint = (key: string): { name: string; op: Operator } => {
  const at = key.lastIndexOf('__');
  if (at < 0) return { name: key, op: OPERATORS.eq! };
  const opName = key.slice(at + 2);
  return { name: key.slice(0, at), op: Object.hasOwn(OPERATORS, opName) ? OPERATORS[opName]! : OPERATORS.eq! };
};

/** `_record_matches`: every constraint holds; a comparison Python would refuse counts as no match. */
const recordMatches = (record: DbRecord, constraints: readonly [string, PyValue][]): boolean =>
  constraints.every(([key, expected]) => {
    const { name, op } = parseConstraint(key);
    try {
      return op(field(record, name), expected);
    } catch (error) {
      if (isPyError(error, 'TypeError') || isPyError(error, 'ValueError')) return false;
      throw error;
    }
  });

/** `len(results) >= limit` with Python's TypeError for a limit that is not a number. */
const limitReached = (count: number, limit: PyValue): boolean => {
  if (typeof limit === 'number' || typeof limit === 'boolean' || isPyFloat(limit)) return compare(count, limit) >= 0;
  throw new PyError('TypeError', `'>=' not supported between instances of 'int' and '${pyTypeName(limit)}'`);
};

/** `query_db(db_name, db, return_ids=True, limit, **constraints)`: matching `[id, record]` pairs. */
export const queryDb = (
  db: TransactionalDB,
  name: string,
  constraints: readonly [string, PyValue][] = [],
  limit: PyValue = null,
): [string, DbRecord][] => {
  if (!isQueryable(name)) return [];
  const results: [string, DbRecord][] = [];
  for (const [id, record] of tableRecords(db, name)) {
    if (!recordMatches(record, constraints)) continue;
    results.push([id, record]);
    if (limit !== null && limitReached(results.length, limit)) break;
  }
  return results;
};

/** `add_to_db`: false when the record id is taken (nothing is written then). */
export const addToDb = (db: TransactionalDB, name: TableName, recordId: string, record: PyValue): boolean => {
  if (hasRecord(db, name, recordId)) return false;
  setRecord(db, name, recordId, record);
  return true;
};

/** `update_record_in_db`: sets each field in order on the stored record; undefined when the id is unknown. */
export const updateRecordInDb = (
  db: TransactionalDB,
  name: TableName,
  recordId: string,
  updates: readonly [string, PyValue][],
): DbRecord | undefined => {
  const record = getRecord(db, name, recordId);
  if (!record) return undefined;
  let updated = record;
  for (const [key, value] of updates) updated = setItem(updated, key, value);
  if (updated !== record) setRecord(db, name, recordId, updated);
  return updated;
};

/** The lines the tool wrappers print for one record: `   field: str(value)`. */
const recordLines = (record: DbRecord): string[] => dictEntries(record).map(([k, v]) => `   ${k}: ${pyStr(v)}`);

const notFound = (name: string): string => `Error: Database '${name}' not found. Available: ${pyRepr([...QUERYABLE_TABLES])}`;

/**
 * `json.loads(constraints)` then `**constraint_dict` into the query: the constraints as ordered pairs, or the
 * Python exception the call raises. A `limit` key is the query's own parameter, not a field constraint.
 */
const parseConstraints = (constraints: string): { pairs: [string, PyValue][]; limit: PyValue } => {
  const parsed = constraints ? parsePyJson(constraints) : {};
  if (!isPyDict(parsed)) {
    throw new PyError('TypeError', `${QUALNAME}.query_db() argument after ** must be a mapping, not ${pyTypeName(parsed)}`);
  }
  const pairs = dictEntries(parsed);
  const clash = pairs.find(([key]) => key === 'db' || key === 'return_ids');
  if (clash) throw new PyError('TypeError', `${QUALNAME}.query_db() got multiple values for keyword argument '${clash[0]}'`);
  if (pairs.some(([key]) => key === 'db_name')) throw new PyError('TypeError', "query_db() got multiple values for argument 'db_name'");
  const limit = pairs.find(([key]) => key === 'limit');
  return { pairs: pairs.filter(([key]) => key !== 'limit'), limit: limit ? limit[1] : null };
};

/** Runs a tool wrapper's body: a bad JSON text and any Python exception become the wrapper's error texts. */
const guarded = (failure: string, body: () => string): string => {
  try {
    return body();
  } catch (error) {
    if (error instanceof PyJsonDecodeError) return `Error: Invalid JSON: ${error.message}`;
    if (isPyError(error)) return `${failure}: ${error.message}`;
    throw error;
  }
};

/** `query_database_tool(database_name, constraints)`: the formatted listing the tools return. */
export const queryDatabaseTool = (db: TransactionalDB, databaseName: string, constraints = '{}'): string => {
  if (!isQueryable(databaseName)) return notFound(databaseName);
  return guarded('Error querying database', () => {
    const { pairs, limit } = parseConstraints(constraints);
    const results = queryDb(db, databaseName, pairs, limit);
    if (results.length === 0) return `No records found in '${databaseName}'.`;
    const lines = [`Found ${results.length} record(s) in '${databaseName}':\n`];
    results.forEach(([id, record], i) => {
      lines.push(`${i + 1}. Record ID: ${id}`, ...recordLines(record), '');
    });
    return lines.join('\n');
  });
};
