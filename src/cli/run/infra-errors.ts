// The infrastructure errors of a run, printed under its summary: grouped by reason, most frequent first, with
// the tasks each one ended (a few named), so a run that failed says why, and what a reason means where it could
// read as a bug.
import { groupInfraErrors } from '../../core/runner/refusal.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';

const NAMED_TASKS = 5;

export const infraErrorLines = (simulations: readonly Pick<SimulationRun, 'task_id' | 'termination_reason' | 'info'>[]): string[] => {
  const groups = groupInfraErrors(simulations);
  if (groups.length === 0) return [];
  return [
    '=== Infrastructure Errors ===',
    ...groups.map(({ reason, count, task_ids, note }) => {
      const named = task_ids.slice(0, NAMED_TASKS).join(', ') + (task_ids.length > NAMED_TASKS ? `, … (${task_ids.length} tasks)` : '');
      return `${count} × ${reason}\n    tasks: ${named}${note === null ? '' : `\n    ${note}`}`;
    }),
  ];
};
