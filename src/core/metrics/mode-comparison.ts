// The same tasks run in the default mode (agent and simulated user) and in the no-user mode (solo agent):
// pass^1 of each and their difference, overall and per task group — how much coordinating with a user costs
// the agent, as the seed paper measures it.
import type { Results, SimulationRun } from '../schemas/simulation.ts';
import { computeMetrics } from './agent-metrics.ts';

type RunResults = Pick<Results, 'info' | 'simulations'>;

export interface ModeRow {
  /** `overall`, or the group's name. */
  readonly group: string;
  /** Tasks evaluated in both modes. */
  readonly tasks: number;
  readonly defaultPass1: number;
  readonly soloPass1: number;
  /** `soloPass1 - defaultPass1`: what the user costs; negative when the agent does better with the user. */
  readonly userCost: number;
}

export interface ModeComparison {
  readonly overall: ModeRow;
  /** One row per group, by name. */
  readonly groups: readonly ModeRow[];
  /** Tasks evaluated in one mode only, left out of every row. */
  readonly onlyDefault: readonly string[];
  readonly onlySolo: readonly string[];
  /** Simulations that ended in an infrastructure error, excluded as the metrics exclude them. */
  readonly infraErrors: { readonly default: number; readonly solo: number };
}

const isInfraError = (sim: SimulationRun): boolean => sim.termination_reason === 'infrastructure_error';

/** Task ids with at least one simulation that counts. */
const evaluatedTasks = (results: RunResults): Set<string> =>
  new Set(results.simulations.filter((s) => !isInfraError(s)).map((s) => s.task_id));

const pass1 = (results: RunResults, tasks: ReadonlySet<string>): number => {
  const metrics = computeMetrics({ info: results.info, simulations: results.simulations.filter((s) => tasks.has(s.task_id)) });
  return metrics.pass_hat_ks[1] ?? 0;
};

/**
 * Compares pass^1 on the tasks both runs evaluated. `groupOf` names a task's group (for telecom, its issue
 * family); tasks it maps to null count only overall.
 */
export const compareModes = (
  defaultRun: RunResults,
  soloRun: RunResults,
  groupOf: (taskId: string) => string | null = () => null,
): ModeComparison => {
  const inDefault = evaluatedTasks(defaultRun);
  const inSolo = evaluatedTasks(soloRun);
  const shared = new Set([...inDefault].filter((id) => inSolo.has(id)));
  if (shared.size === 0) throw new Error('No task was evaluated in both modes');

  const row = (group: string, tasks: ReadonlySet<string>): ModeRow => {
    const defaultPass1 = pass1(defaultRun, tasks);
    const soloPass1 = pass1(soloRun, tasks);
    return { group, tasks: tasks.size, defaultPass1, soloPass1, userCost: soloPass1 - defaultPass1 };
  };
  const byGroup = new Map<string, Set<string>>();
  for (const id of shared) {
    const group = groupOf(id);
    if (group !== null) byGroup.set(group, (byGroup.get(group) ?? new Set()).add(id));
  }
  return {
    overall: row('overall', shared),
    groups: [...byGroup.keys()].sort().map((group) => row(group, byGroup.get(group)!)),
    onlyDefault: [...inDefault].filter((id) => !inSolo.has(id)),
    onlySolo: [...inSolo].filter((id) => !inDefault.has(id)),
    infraErrors: {
      default: defaultRun.simulations.filter(isInfraError).length,
      solo: soloRun.simulations.filter(isInfraError).length,
    },
  };
};
