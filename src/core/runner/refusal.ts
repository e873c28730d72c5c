// Provider refusals: failures no retry can fix. A call the provider refused (an InfraError marked not retryable,
// e.g. HTTP 400/401/403/404) is not attempted again, and a refusal that every task would meet stops the run:
// a bad key, no access, an unknown model or missing credentials at once; any other refusal once it ended
// several different tasks with the same message while nothing succeeded.
import { isInfraError } from '../llm/types.ts';
import { isRetryableStatus } from '../llm/retry.ts';
import type { SimulationRun } from '../schemas/simulation.ts';
import { infraErrorNote } from './grading-failure.ts';

/** Whether a failed attempt is a provider's refusal, which another attempt would only repeat. */
export const isRefusal = (error: unknown): boolean => isInfraError(error) && !error.retryable;

/** Whether a recorded failure's message is a refusal's: a status no retry changes, or missing credentials. */
export const isRefusalText = (message: string): boolean => {
  if (/credentials are configured/.test(message)) return true;
  const status = /\bHTTP (4\d\d)\b/.exec(message)?.[1];
  return status !== undefined && !isRetryableStatus(Number(status));
};

/** A refusal that is the same for every task, whatever the task: the run cannot succeed. */
export const refusesEveryTask = (message: string): boolean => /\bHTTP (401|403|404)\b|credentials are configured/.test(message);

/** How many different tasks the same other refusal must end, with no success, before it stops the run. */
export const SAME_REFUSAL_TASKS = 3;

/** Watches a run's finished simulations and names the refusal that should stop it, once one does. */
export const refusalWatch = () => {
  const tasksByMessage = new Map<string, Set<string>>();
  let succeeded = false;
  let stop: string | null = null;
  return {
    /**
     * Notes a finished simulation of `taskId`: its infrastructure error's message, or null when it ran. Returns
     * the reason to stop, if any (the message is all a finished simulation keeps of its failure).
     */
    note(taskId: string, infraError: string | null): string | null {
      if (stop !== null) return stop;
      if (infraError === null) {
        succeeded = true;
        return null;
      }
      if (!isRefusalText(infraError)) return null;
      if (refusesEveryTask(infraError)) return (stop = infraError);
      const tasks = tasksByMessage.get(infraError) ?? new Set<string>();
      tasks.add(taskId);
      tasksByMessage.set(infraError, tasks);
      if (!succeeded && tasks.size >= SAME_REFUSAL_TASKS) stop = infraError;
      return stop;
    },
  };
};

/** The error an infrastructure-error simulation recorded, or null for one that ran. */
export const infraErrorOf = (simulation: Pick<SimulationRun, 'termination_reason' | 'info'>): string | null => {
  if (simulation.termination_reason !== 'infrastructure_error') return null;
  const error = (simulation.info as Record<string, unknown> | null | undefined)?.['error'];
  return typeof error === 'string' ? error : 'no reason recorded';
};

/** Infrastructure errors grouped by reason, most frequent first: the reason, how many, and their tasks. */
export interface InfraErrorGroup {
  readonly reason: string;
  readonly count: number;
  readonly task_ids: string[];
  /** What the reason means, when a newcomer could read it as a bug (grading-failure.ts). */
  readonly note: string | null;
}

export const groupInfraErrors = (simulations: readonly Pick<SimulationRun, 'task_id' | 'termination_reason' | 'info'>[]): InfraErrorGroup[] => {
  const groups = new Map<string, { count: number; tasks: Set<string>; note: string | null }>();
  for (const simulation of simulations) {
    const reason = infraErrorOf(simulation);
    if (reason === null) continue;
    const group = groups.get(reason) ?? { count: 0, tasks: new Set<string>(), note: null };
    group.count++;
    group.tasks.add(simulation.task_id);
    group.note ??= infraErrorNote(simulation);
    groups.set(reason, group);
  }
  return [...groups]
    .map(([reason, { count, tasks, note }]) => ({ reason, count, task_ids: [...tasks], note }))
    .sort((a, b) => b.count - a.count);
};

/** Why a run stopped early because of `refusal`, as the run records it. */
export const stoppedBy = (refusal: string): string => `The provider refused: ${refusal}`;

/** The refusal that should have stopped a run of these simulations (in the order they finished), if any. */
export const refusalOf = (simulations: readonly Pick<SimulationRun, 'task_id' | 'termination_reason' | 'info'>[]): string | null => {
  const watch = refusalWatch();
  let refusal: string | null = null;
  for (const simulation of simulations) refusal = watch.note(simulation.task_id, infraErrorOf(simulation));
  return refusal;
};
