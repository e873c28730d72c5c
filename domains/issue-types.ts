// Per domain whose task ids carry an issue type (telecom: the task's issue family), the type of a task; the
// compare-modes command and the viewer's per-issue-type results group by it.
import { parseTaskId } from './telecom/tasks/task-id.ts';

type IssueTypeOf = (taskId: string) => string | null;

const issueTypes: Readonly<Record<string, IssueTypeOf>> = {
  telecom: (taskId) => parseTaskId(taskId)?.family ?? null,
};

/** The domain's issue type of a task, or undefined for a domain without issue types. */
export const issueTypeOf = (domain: string): IssueTypeOf | undefined => (Object.hasOwn(issueTypes, domain) ? issueTypes[domain] : undefined);
