// An issue family: one kind of customer complaint, the selection sets its tasks are composed from, and how
// success is checked (reference: TaskManager in src/tau2/domains/telecom/tasks/manager.py).
import type { EnvAssertion } from '../../../src/core/schemas/task.ts';
import type { Choice } from './compose.ts';
import type { SelectionSet } from './issue.ts';

export interface IssueFamily {
  /** The id prefix, `[name]`: `service_issue`, `mobile_data_issue` or `mms_issue`. */
  readonly name: string;
  readonly purpose: string;
  readonly reasonForCall: string;
  /** Templates over `{name}`, `{phone_number}` and `{location}`. */
  readonly knownInfo: string;
  readonly ticket: string;
  readonly taskInstructions: string;
  readonly selectionSets: readonly SelectionSet[];
  /** Which choices make a task; without it, every non-empty choice does. */
  readonly isValid?: (choice: Choice) => boolean;
  /** The final-state checks of a task the agent can fix (`true`) or must transfer (`false`). */
  readonly assertions: (expectedSuccess: boolean) => EnvAssertion[];
}

/** True when the choice takes an issue from one of the sets at index `from` or later. */
export const choosesFrom = (from: number) => (choice: Choice): boolean => choice.slice(from).some((i) => i !== null);
