// The local runtime's bound on live Durable Objects (LIMIT_LIVE_OBJECTS, see src/worker/live-objects.ts), from
// the open-file limit workerd inherits: each live object holds 3 files open (its SQLite database, write-ahead
// log and shared-memory index), and a quarter of the limit stays free for sockets, D1 and the runtime itself.
import { readFile } from 'node:fs/promises';

const FILES_PER_OBJECT = 3;
const SHARE_FOR_OBJECTS = 0.75;

/** This process's open-file limit (Node raises it to the hard limit at startup), or null where /proc is absent. */
export const openFileLimit = async (): Promise<number | null> => {
  const limits = await readFile('/proc/self/limits', 'utf8').catch(() => null);
  const match = limits === null ? null : /^Max open files\s+(\d+|unlimited)/m.exec(limits);
  if (match === null || match[1] === 'unlimited') return null;
  return Number(match[1]);
};

/** The live objects `openFiles` leaves room for. */
export const liveObjectsBound = (openFiles: number): number => Math.max(1, Math.floor((openFiles * SHARE_FOR_OBJECTS) / FILES_PER_OBJECT));
