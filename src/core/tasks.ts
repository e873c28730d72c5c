// Loading a domain's task set and selecting tasks by split, ids and count (reference: get_tasks + CLI filters).
import { parsePyJson } from './py/index.ts';
import { TaskListSchema, TaskSplitsSchema } from './schemas/task.ts';
import type { Task, TaskSplits } from './schemas/task.ts';

/** Parses a tasks file, keeping int/float kinds of every argument value. */
export const parseTasks = (text: string): Task[] => TaskListSchema.parse(parsePyJson(text));

export const parseSplits = (text: string): TaskSplits => TaskSplitsSchema.parse(parsePyJson(text));

export interface TaskSelection {
  readonly split?: string | null;
  readonly taskIds?: readonly string[] | null;
  readonly numTasks?: number | null;
}

/** Requested task ids that the task set (or split) does not hold; the message is the reference's. */
export class MissingTasksError extends Error {
  readonly missing: readonly string[];

  constructor(setName: string, missing: readonly string[]) {
    super(`Not all tasks were found for task set ${setName}: missing ${missing.join(', ')}`);
    this.missing = missing;
  }
}

/**
 * Keeps the tasks of a split (in task-file order), then the requested ids (all must exist), then the first N.
 */
export const selectTasks = (
  setName: string,
  tasks: readonly Task[],
  splits: TaskSplits | null,
  selection: TaskSelection,
): Task[] => {
  let selected = [...tasks];
  // A domain without splits ignores the split name, as its reference task loader does (banking_knowledge).
  if (selection.split != null && splits !== null) {
    if (!Object.hasOwn(splits, selection.split)) {
      throw new Error(`Invalid task split name: ${selection.split}. Valid splits are: ${Object.keys(splits).join(', ')}`);
    }
    const ids = new Set(splits[selection.split]);
    selected = selected.filter((t) => ids.has(t.id));
  }
  if (selection.taskIds != null) {
    const wanted = new Set(selection.taskIds);
    const found = selected.filter((t) => wanted.has(t.id));
    if (found.length !== wanted.size) {
      const missing = [...wanted].filter((id) => !found.some((t) => t.id === id));
      throw new MissingTasksError(setName, missing);
    }
    selected = found;
  }
  if (selection.numTasks != null) selected = selected.slice(0, selection.numTasks);
  return selected;
};
