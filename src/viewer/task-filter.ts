// The run page's task search and failures-only filter, from the page's query: a task is shown when the text is
// in its id, a trial's termination reason or an infrastructure error's reason (case-insensitive), and, with
// failures only, when one of its trials is not a success.
import { z } from 'zod';
import { isSuccessful } from '../core/metrics/agent-metrics.ts';
import type { TaskRow } from './report.ts';

export const MAX_SEARCH_LENGTH = 200;

export const TaskFilterSchema = z.object({
  q: z.string().trim().max(MAX_SEARCH_LENGTH).catch('').default(''),
  failures: z.string().optional(),
}).transform(({ q, failures }) => ({ q, failuresOnly: failures === '1' }));
export type TaskFilter = z.infer<typeof TaskFilterSchema>;

const failed = (row: TaskRow): boolean => row.trials.some((t) => t.reward === null || !isSuccessful(t.reward));

const mentions = (row: TaskRow, needle: string): boolean =>
  [row.taskId, ...row.trials.flatMap((t) => [t.terminationReason, t.error ?? ''])].some((text) => text.toLowerCase().includes(needle));

export const filterTasks = (rows: readonly TaskRow[], filter: TaskFilter): readonly TaskRow[] => {
  const needle = filter.q.toLowerCase();
  return rows.filter((row) => (!filter.failuresOnly || failed(row)) && (needle === '' || mentions(row, needle)));
};
