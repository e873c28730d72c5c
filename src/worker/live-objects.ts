// The bound on Durable Objects a local worker holds at once. The local runtime (workerd) keeps each object's
// SQLite files open (the database, its write-ahead log and shared-memory index) while it holds the object: it
// lets an object go about 10 s after its last request and closes its storage once the object has had no client
// for 70 s more, checked every 70 s. Episodes opened faster than that (an RL client opening thousands, each a
// run object and an episode object) exhaust the machine's open-file limit, and a new object then fails to open
// its database. So where LIMIT_LIVE_OBJECTS is set (the local worker sets it from its open-file limit), new work
// is admitted only while the objects loaded within that horizon are under it; past it, 503 with Retry-After.
// On Cloudflare the variable is unset: objects run in isolates of their own, and the platform bounds them.
import { overloaded } from './api/errors.ts';

/** How long the local runtime may hold an object after it was last loaded (10 s idle + up to 2 × 70 s). */
export const OBJECT_HOLD_MS = 150_000;

/** Objects this isolate loaded, by id, oldest first, with when. */
const loadedAt = new Map<string, number>();

const forgetGone = (nowMs: number): void => {
  for (const [id, at] of loadedAt) {
    if (nowMs - at < OBJECT_HOLD_MS) break;
    loadedAt.delete(id);
  }
};

/** Called by each Durable Object as it is loaded into this isolate. */
export const noteObjectLoaded = (id: DurableObjectId, nowMs = Date.now()): void => {
  const key = id.toString();
  loadedAt.delete(key);
  loadedAt.set(key, nowMs);
  forgetGone(nowMs);
};

/** The objects this isolate may still hold. */
export const objectsHeld = (nowMs = Date.now()): number => {
  forgetGone(nowMs);
  return loadedAt.size;
};

/** The bound LIMIT_LIVE_OBJECTS sets (a positive integer), or null: no bound. */
export const liveObjectsLimit = (env: Env): number | null => {
  const text = (env as unknown as { LIMIT_LIVE_OBJECTS?: string }).LIMIT_LIVE_OBJECTS;
  const limit = Number(text);
  return text !== undefined && Number.isSafeInteger(limit) && limit > 0 ? limit : null;
};

/**
 * Refuses new work (503 `overloaded`, Retry-After until the oldest object may be let go) while the objects held
 * and the `objects` the work loads at once would pass the bound (work larger than the bound waits for an empty
 * worker).
 */
export const admitObjects = (env: Env, objects: number, nowMs = Date.now()): void => {
  const limit = liveObjectsLimit(env);
  if (limit === null || objectsHeld(nowMs) + Math.min(objects, limit) <= limit) return;
  const [oldest] = loadedAt.values();
  const waitSeconds = Math.max(1, Math.ceil(((oldest ?? nowMs) + OBJECT_HOLD_MS - nowMs) / 1000));
  throw overloaded(`This worker holds ${loadedAt.size} objects, at its limit of ${limit} (LIMIT_LIVE_OBJECTS); try again later`, waitSeconds);
};
