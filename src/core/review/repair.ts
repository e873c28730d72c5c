// Repairing user-simulator errors: a simulation whose review blames a user turn on the simulator is forked just
// before that turn and continued, then reviewed again, until a continuation is free of such errors or the
// attempts run out. The agent's turns before the fork stay as they were. No I/O: forking, continuing and
// reviewing are passed in.
import type { PyValue } from '../py/index.ts';
import type { SimulationRun } from '../schemas/simulation.ts';
import type { Task } from '../schemas/task.ts';
import { faultyUserTurn, stepBefore, uncountedOpening } from './repair-point.ts';
import type { SimulationReview } from './reviewer.ts';
import { withReview } from './review-run.ts';

export const DEFAULT_MAX_REPAIRS = 3;

export interface RepairDeps {
  readonly maxRepairs: number;
  /** The simulation forked at step `atStep` (see episode/fork.ts) and continued to its end. */
  readonly continueFrom: (source: SimulationRun, atStep: number) => Promise<SimulationRun>;
  /** The same review as the original's; throws when it cannot be made (never an empty review, which would read as clean). */
  readonly review: (simulation: SimulationRun) => Promise<SimulationReview>;
}

/** What `info.repair` records on a repaired simulation (and on one whose attempts all still erred). */
export interface RepairRecord {
  readonly original_simulation_id: string;
  readonly at_step: number;
  readonly attempts: number;
  /** The review that blamed the simulator, on which the repair rests. */
  readonly review: PyValue;
  readonly free_of_simulator_errors: boolean;
}

export type RepairOutcome =
  /** Nothing to repair: no user turn is blamed on the simulator. */
  | { readonly kind: 'clean'; readonly simulation: SimulationRun }
  /** A continuation free of simulator errors replaces the original. */
  | { readonly kind: 'repaired'; readonly simulation: SimulationRun; readonly record: RepairRecord }
  /** Every attempt still erred (or one could not be made): the original is kept, with the attempts recorded. */
  | { readonly kind: 'not_repaired'; readonly simulation: SimulationRun; readonly record: RepairRecord; readonly reason: string };

const withRecord = (simulation: SimulationRun, record: RepairRecord): SimulationRun => ({
  ...simulation,
  info: { ...(simulation.info ?? {}), repair: record as unknown as PyValue },
});

const reviewValue = (outcome: SimulationReview): PyValue => outcome.review as unknown as PyValue;

/** Repairs one reviewed simulation of `task`; each attempt forks the latest continuation just before its own faulty turn. */
export const repairSimulation = async (
  original: SimulationRun,
  task: Task,
  outcome: SimulationReview,
  deps: RepairDeps,
): Promise<RepairOutcome> => {
  // Repairs concern the user simulator, so never a solo run's.
  const opening = uncountedOpening(task.initial_state?.message_history?.length ?? 0, false);
  const messagesOf = (s: SimulationRun) => s.messages ?? [];
  let turn = faultyUserTurn(outcome, messagesOf(original));
  if (turn === null || original.termination_reason === 'infrastructure_error') return { kind: 'clean', simulation: original };
  let current = original;
  let attempts = 0;
  let atStep = stepBefore(messagesOf(original), turn, opening);
  const record = (free: boolean): RepairRecord => ({
    original_simulation_id: original.id, at_step: atStep, attempts, review: reviewValue(outcome), free_of_simulator_errors: free,
  });
  const notRepaired = (reason: string): RepairOutcome => ({ kind: 'not_repaired', simulation: withRecord(original, record(false)), record: record(false), reason });
  while (attempts < deps.maxRepairs) {
    attempts += 1;
    let next: SimulationRun;
    let review: SimulationReview;
    try {
      next = await deps.continueFrom(current, atStep);
      if (next.termination_reason === 'infrastructure_error') return notRepaired(`the continuation failed: ${String(next.info?.['error'] ?? 'infrastructure error')}`);
      review = await deps.review(next);
    } catch (error) {
      return notRepaired(error instanceof Error ? error.message : String(error));
    }
    current = withReview(next, review);
    const nextTurn = faultyUserTurn(review, messagesOf(current));
    if (nextTurn === null) return { kind: 'repaired', simulation: withRecord(current, record(true)), record: record(true) };
    turn = nextTurn;
    atStep = stepBefore(messagesOf(current), turn, opening);
  }
  return notRepaired(`the user simulator still erred after ${attempts} attempt(s)`);
};

export interface RepairTally {
  /** Simulations forked to repair a user-simulator error. */
  readonly repaired: number;
  /** Of those, the ones whose continuation is free of simulator errors. */
  readonly free: number;
}

export const repairTally = (outcomes: readonly RepairOutcome[]): RepairTally => ({
  repaired: outcomes.filter((o) => o.kind !== 'clean').length,
  free: outcomes.filter((o) => o.kind === 'repaired').length,
});
