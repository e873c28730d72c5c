// Composing atomic issues into multi-issue tasks (reference: compose_tasks in
// src/tau2/domains/telecom/tasks/utils.py).
import { compareStrings } from '../../../src/core/py/index.ts';
import type { AtomicIssue, SelectionSet } from './issue.ts';

/** One choice per selection set, `null` where the set contributes nothing. */
export type Choice = readonly (AtomicIssue | null)[];

export interface ComposedIssue {
  /** The chosen issues, sorted by name (the task id lists them in this order). */
  readonly issues: readonly AtomicIssue[];
}

/** Every choice, in `itertools.product` order: the first set varies slowest, "none" comes last in each set. */
const choices = (sets: readonly SelectionSet[]): Choice[] =>
  sets.reduce<Choice[]>(
    (partial, set) => partial.flatMap((prefix) => [...set, null].map((option) => [...prefix, option])),
    [[]],
  );

const byName = (a: AtomicIssue, b: AtomicIssue): number => compareStrings(a.name, b.name);

/**
 * The composed tasks of every valid choice. Without a validator, any non-empty choice is valid; with one,
 * the validator alone decides.
 */
export const composeIssues = (
  sets: readonly SelectionSet[],
  isValid?: (choice: Choice) => boolean,
): ComposedIssue[] =>
  choices(sets).flatMap((choice) => {
    if (isValid && !isValid(choice)) return [];
    const issues = choice.filter((issue): issue is AtomicIssue => issue !== null).sort(byName);
    if (!isValid && issues.length === 0) return [];
    return [{ issues }];
  });
