// Runs of the same tasks compared on the tasks they all evaluated. Default mode (agent and simulated user)
// against the no-user mode (solo agent): pass^1 of each and their difference, overall and per task group — how
// much coordinating with a user costs the agent, as the seed paper measures it. Runs of one domain split by
// retrieval configuration (`info.retrieval_config`): each configuration's avg reward and pass^k, and each
// task's reward under every configuration against the first.
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

export interface LabelledRun {
  /** How messages name the run (a file path, a run id). */
  readonly label: string;
  readonly results: RunResults;
}

export interface ConfigRow {
  /** The retrieval configuration's name. */
  readonly config: string;
  readonly label: string;
  /** Simulations that count, on the tasks every configuration evaluated. */
  readonly simulations: number;
  readonly avgReward: number;
  /** pass^k for k = 1 … the trials every shared task has in this run. */
  readonly passHatK: Readonly<Record<number, number>>;
  /** Simulations of the whole run that ended in an infrastructure error (excluded). */
  readonly infraErrors: number;
}

export interface ConfigTaskRow {
  readonly taskId: string;
  /** The task's average reward under each configuration, in the order of `configs`. */
  readonly avgRewards: readonly number[];
  /** Each later configuration's average minus the first's. */
  readonly deltas: readonly number[];
}

export interface ConfigComparison {
  readonly domain: string;
  /** One row per run, in the order given; the first is the baseline of the deltas. */
  readonly configs: readonly ConfigRow[];
  /** The tasks every configuration evaluated, in the first run's order. */
  readonly tasks: readonly ConfigTaskRow[];
  /** Tasks some configuration did not evaluate, left out of every row. */
  readonly leftOut: readonly string[];
}

const retrievalConfigOf = ({ label, results }: LabelledRun): string => {
  const config = results.info.retrieval_config;
  if (config === null || config === undefined) {
    throw new Error(`${label} records no retrieval configuration (a ${results.info.environment_info.domain_name} run)`);
  }
  return config;
};

/**
 * Compares runs of one domain that differ in their retrieval configuration, on the tasks all of them evaluated.
 * Refuses runs of different domains, a run without a configuration, and two runs of the same configuration.
 */
export const compareRetrievalConfigs = (runs: readonly LabelledRun[]): ConfigComparison => {
  if (runs.length < 2) throw new Error('Give at least two runs to compare');
  const domains = [...new Set(runs.map((r) => r.results.info.environment_info.domain_name))];
  if (domains.length > 1) throw new Error(`The runs are of different domains: ${domains.join(', ')}`);
  const configs = runs.map(retrievalConfigOf);
  const repeated = configs.find((c, i) => configs.indexOf(c) !== i);
  if (repeated !== undefined) {
    const labels = runs.filter((_, i) => configs[i] === repeated).map((r) => r.label);
    throw new Error(`More than one run of retrieval configuration ${repeated}: ${labels.join(', ')}`);
  }
  const evaluated = runs.map((r) => evaluatedTasks(r.results));
  const every = new Set([...evaluated[0]!].filter((id) => evaluated.every((tasks) => tasks.has(id))));
  if (every.size === 0) throw new Error('No task was evaluated by every configuration');
  const metricsOn = (results: RunResults, tasks: ReadonlySet<string>) =>
    computeMetrics({ info: results.info, simulations: results.simulations.filter((s) => tasks.has(s.task_id)) });

  const tasks = [...every].map((taskId): ConfigTaskRow => {
    const avgRewards = runs.map((r) => metricsOn(r.results, new Set([taskId])).avg_reward);
    return { taskId, avgRewards, deltas: avgRewards.slice(1).map((avg) => avg - avgRewards[0]!) };
  });
  return {
    domain: domains[0]!,
    configs: runs.map(({ label, results }, i): ConfigRow => {
      const metrics = metricsOn(results, every);
      return {
        config: configs[i]!,
        label,
        simulations: metrics.total_simulations,
        avgReward: metrics.avg_reward,
        passHatK: metrics.pass_hat_ks,
        infraErrors: results.simulations.filter(isInfraError).length,
      };
    }),
    tasks,
    leftOut: [...new Set(evaluated.flatMap((set) => [...set]))].filter((id) => !every.has(id)),
  };
};
