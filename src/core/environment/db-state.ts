// Copy-on-write domain DBs: a frozen shared base, episodes that hold only what they changed, and a DB verdict
// that compares changes instead of re-serializing whole documents.
import { enableMapSet, freeze, produce } from 'immer';
import { isPlainDict, isPyFloat } from '../py/index.ts';

enableMapSet();

/** Deep-freezes a freshly parsed base DB so every episode can share it read-only. */
export const freezeBase = <Db>(db: Db): Db => freeze(db, true);

/**
 * Runs `mutate` on a draft of `db` and returns the new state, sharing every untouched subtree with `db`.
 * Like the reference (no transactions), changes made before an exception are kept; the exception is rethrown.
 */
export const mutateDb = <Db, R>(db: Db, mutate: (draft: Db) => R): { db: Db; result: R } => {
  let result: R | undefined;
  let failure: { error: unknown } | undefined;
  const next = produce(db, (draft: Db) => {
    try {
      result = mutate(draft);
    } catch (error) {
      failure = { error };
    }
  });
  if (failure) throw Object.assign(failure.error as object, { partialState: next });
  return { db: next, result: result as R };
};

/** The state a failed `mutateDb` left behind (partial mutations persist, as in the reference). */
export const partialStateOf = <Db>(error: unknown): Db | undefined =>
  typeof error === 'object' && error !== null ? (error as { partialState?: Db }).partialState : undefined;

const isMap = (v: unknown): v is ReadonlyMap<string, unknown> => v instanceof Map;
/** Float identity as Python's JSON would print it: same double, with -0.0 distinct and NaN equal to NaN. */
const sameFloat = (a: number, b: number): boolean => Object.is(a, b);

const sameScalar = (a: unknown, b: unknown): boolean => {
  const aFloat = isPyFloat(a) || (typeof a === 'number' && !Number.isInteger(a));
  const bFloat = isPyFloat(b) || (typeof b === 'number' && !Number.isInteger(b));
  if (aFloat || bFloat) {
    if (!(aFloat && bFloat)) return false;
    return sameFloat(Number(a), Number(b));
  }
  return a === b;
};

const hasToPyJson = (v: unknown): v is { toPyJson(): unknown } =>
  typeof v === 'object' && v !== null && typeof (v as { toPyJson?: unknown }).toPyJson === 'function';

/**
 * True iff Python's `json.dumps(x, sort_keys=True, default=str)` of both values is identical — the verdict of
 * the reference's DB hash comparison. Shared subtrees are skipped by identity, so the cost is O(changes).
 */
export const dbEquals = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (hasToPyJson(a) || hasToPyJson(b)) {
    return dbEquals(hasToPyJson(a) ? a.toPyJson() : a, hasToPyJson(b) ? b.toPyJson() : b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => dbEquals(item, b[i]));
  }
  if (isPlainDict(a) && isPlainDict(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && dbEquals(a[key], b[key]));
  }
  if (isMap(a) || isMap(b) || isPlainDict(a) || isPlainDict(b)) {
    const entriesA = isMap(a) ? a : isPlainDict(a) ? new Map(Object.entries(a)) : undefined;
    const entriesB = isMap(b) ? b : isPlainDict(b) ? new Map(Object.entries(b)) : undefined;
    if (!entriesA || !entriesB || entriesA.size !== entriesB.size) return false;
    for (const [key, value] of entriesA) {
      if (!entriesB.has(key) || !dbEquals(value, entriesB.get(key))) return false;
    }
    return true;
  }
  return sameScalar(a, b);
};

export type DbPath = string[];
/** One change of an episode's DB relative to the shared base: a replaced subtree or a removed key. */
export type DbChange = { path: DbPath; value: unknown } | { path: DbPath; removed: true };

const childOf = (container: unknown, key: string): unknown =>
  isMap(container) ? container.get(key) : (container as Record<string, unknown>)[key];

const keysOf = (container: unknown): string[] =>
  isMap(container) ? [...container.keys()] : Object.keys(container as Record<string, unknown>);

const hasKey = (container: unknown, key: string): boolean =>
  isMap(container) ? container.has(key) : Object.hasOwn(container as object, key);

/**
 * The changes that turn `base` into `current`, walking only the subtrees that are no longer shared.
 * Arrays that changed are recorded whole (DB lists are short); key order of changed dicts is kept by
 * recording the whole dict when its key order differs from the base.
 */
export const diffFromBase = (base: unknown, current: unknown): DbChange[] => {
  const changes = diffAt(base, current, []);
  if (Object.isFrozen(current)) describedState.set(changes, { base, current });
  return changes;
};

/**
 * The frozen state each change set made in this process was taken from, with its base: re-applying that very
 * set to that base hands the state back instead of copying the changed paths again.
 */
const describedState = new WeakMap<readonly DbChange[], { base: unknown; current: unknown }>();

const diffAt = (base: unknown, current: unknown, path: DbPath): DbChange[] => {
  if (base === current) return [];
  const bothDicts =
    (isPlainDict(base) && isPlainDict(current)) || (isMap(base) && isMap(current));
  if (!bothDicts) return [{ path, value: current }];
  const baseKeys = keysOf(base);
  const currentKeys = keysOf(current);
  // Usually only values changed: the same keys in the same order, nothing removed or added.
  const sameKeys = baseKeys.length === currentKeys.length && baseKeys.every((key, i) => currentKeys[i] === key);
  const changes: DbChange[] = [];
  if (!sameKeys) {
    const keptOrder = baseKeys.filter((k) => hasKey(current, k));
    if (!keptOrder.every((k, i) => currentKeys[i] === k)) return [{ path, value: current }];
    for (const key of baseKeys) {
      if (!hasKey(current, key)) changes.push({ path: [...path, key], removed: true });
    }
  }
  for (const key of currentKeys) {
    if (!sameKeys && !hasKey(base, key)) {
      changes.push({ path: [...path, key], value: childOf(current, key) });
      continue;
    }
    // Most children are still shared with the base: skip them before building a path.
    const before = childOf(base, key);
    const after = childOf(current, key);
    if (before !== after) changes.push(...diffAt(before, after, [...path, key]));
  }
  return changes;
};

/** Re-applies recorded changes to the shared base; untouched subtrees stay shared. */
export const applyChanges = <Db>(base: Db, changes: readonly DbChange[]): Db => {
  const described = describedState.get(changes);
  if (described?.base === base) return described.current as Db;
  const rootIndex = changes.findLastIndex((c) => c.path.length === 0);
  const start = rootIndex >= 0 ? (changes[rootIndex] as { value: Db }).value : base;
  const rest = changes.slice(rootIndex + 1);
  return produce(start, (draft: Db) => {
    for (const change of rest) {
      let node: unknown = draft;
      for (const key of change.path.slice(0, -1)) node = childOf(node, key);
      const last = change.path[change.path.length - 1]!;
      if ('removed' in change) {
        if (isMap(node)) (node as Map<string, unknown>).delete(last);
        else delete (node as Record<string, unknown>)[last];
      } else if (isMap(node)) (node as Map<string, unknown>).set(last, change.value);
      else (node as Record<string, unknown>)[last] = change.value;
    }
  });
};
