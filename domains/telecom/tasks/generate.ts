// The telecom task set: every family's composed tasks with personas assigned round-robin, as released in
// `tasks.json` (split `full`), and its single-issue tasks (`tasks_small.json`, split `small`)
// (reference: TaskManager.create_tasks and src/tau2/domains/telecom/tasks/create_tasks.py).
import { dumpsPy } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { buildTask } from './build-task.ts';
import type { GeneratedTask } from './build-task.ts';
import { composeIssues } from './compose.ts';
import type { IssueFamily } from './family.ts';
import { mmsIssues } from './mms-issues.ts';
import { mobileDataIssues } from './mobile-data-issues.ts';
import { serviceIssues } from './service-issues.ts';
import { parseTaskId } from './task-id.ts';
import { PERSONAS } from './user-texts.ts';

/** The families in the order of the released file. */
export const FAMILIES: readonly IssueFamily[] = [mobileDataIssues, serviceIssues, mmsIssues];

/** Composed but withheld from the released tasks (after it has taken its persona turn). */
const WITHHELD_ISSUE = 'data_usage_exceeded_no_refuel';

export const isWithheld = (taskId: string): boolean => parseTaskId(taskId)!.issues.includes(WITHHELD_ISSUE);

/** A family's tasks, fewest issues first; the i-th task in that order plays persona i mod 3. */
export const familyTasks = (family: IssueFamily): GeneratedTask[] =>
  composeIssues(family.selectionSets, family.isValid)
    .sort((a, b) => a.issues.length - b.issues.length)
    .map((composed, i) => buildTask(family, composed, PERSONAS[i % PERSONAS.length]!));

/** Every composed task of every family, withheld ones included, in file order. */
export const composedTelecomTasks = (): GeneratedTask[] => FAMILIES.flatMap(familyTasks);

/** The released telecom tasks (split `full`), in file order. */
export const releasedTasks = (composed: readonly GeneratedTask[]): GeneratedTask[] =>
  composed.filter((task) => !isWithheld(task.id));

/** The single-issue tasks (split `small`, `tasks_small.json`), in file order. */
export const singleIssueTasks = (tasks: readonly GeneratedTask[]): GeneratedTask[] =>
  tasks.filter((task) => parseTaskId(task.id)!.issues.length === 1);

/** The text of a released task file: Python's `json.dump(tasks, indent=2)`, no trailing newline. */
export const taskFileText = (tasks: readonly GeneratedTask[]): string =>
  dumpsPy(tasks as unknown as PyValue, { indent: 2 });
