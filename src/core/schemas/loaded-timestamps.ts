// Timestamps a results file leaves out, filled in as the reference fills them when it loads one: its models give
// `timestamp` a default of "now" (Results, SimulationRun, and every message, including a task's message history),
// so an absent key becomes the load time while an explicit null stays null.
import { isPlainDict } from '../py/index.ts';

type Mutable = Record<string, unknown>;

const dict = (value: unknown): Mutable | null => (isPlainDict(value) ? (value as Mutable) : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const fill = (value: unknown, now: string): void => {
  const d = dict(value);
  if (d !== null && !Object.hasOwn(d, 'timestamp')) d.timestamp = now;
};

const fillMessages = (messages: unknown, now: string): void => {
  for (const message of list(messages)) fill(message, now);
};

/** Fills absent timestamps of a parsed results document in place, before it is validated; `now` is the load time. */
export const fillLoadedTimestamps = (results: unknown, now: string): void => {
  const root = dict(results);
  if (root === null) return;
  fill(root, now);
  for (const simulation of list(root.simulations)) {
    fill(simulation, now);
    fillMessages(dict(simulation)?.messages, now);
  }
  for (const task of list(root.tasks)) fillMessages(dict(dict(task)?.initial_state)?.message_history, now);
};
