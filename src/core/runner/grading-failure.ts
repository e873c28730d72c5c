// An exception raised while grading a finished episode, not by a provider: e.g. mock's
// create_task_1_with_env_assertions, whose environment assertion reads task_2, raises "Task task_2 not found"
// when the agent never created that task. The reference's run_with_retry retries the whole simulation on it and
// then records an infrastructure error, as tau2-edge does; the record says the error came from grading
// (`info.error_stage`), so the places that show it can explain it rather than let it read as a bug.
import { isInfraError } from '../llm/types.ts';
import type { SimulationRun } from '../schemas/simulation.ts';

export const GRADING_STAGE = 'evaluation';

const raisedWhileGrading = new WeakSet<object>();

/** Marks an exception the grading raised (a provider's failure, e.g. the judge's, stays a provider's). */
export const markGradingFailure = (error: unknown): unknown => {
  if (typeof error === 'object' && error !== null && !isInfraError(error)) raisedWhileGrading.add(error);
  return error;
};

export const isGradingFailure = (error: unknown): boolean => typeof error === 'object' && error !== null && raisedWhileGrading.has(error);

/** What an infrastructure error raised while grading means, for a newcomer reading it. */
export const GRADING_FAILURE_NOTE =
  "raised while grading the simulation: one of the task's checks (e.g. an environment assertion reading a record the agent never created) failed to run. tau2-bench records such a simulation the same way, as an infrastructure error left out of the metrics; it is not a fault of tau2-edge";

/** The note for an infrastructure-error simulation, or null when it has none. */
export const infraErrorNote = (simulation: Pick<SimulationRun, 'info'>): string | null =>
  (simulation.info as Record<string, unknown> | null | undefined)?.['error_stage'] === GRADING_STAGE ? GRADING_FAILURE_NOTE : null;
