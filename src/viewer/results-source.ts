// Results files as the viewer's source (`tau2-edge view FILE --web`): each file is a completed run, read only.
// Its run record is made from the file's info as the API would show it; its id is the file's name.
import { computeMetrics, metricsAsDict } from '../core/metrics/agent-metrics.ts';
import { runErrorBars } from '../core/metrics/error-bars.ts';
import type { DbDiff, Run } from '../api/index.ts';
import { isCallerPlayed } from '../core/schemas/run-config.ts';
import { runConfigOfInfo } from '../core/runner/results-config.ts';
import type { Results, SimulationRun } from '../core/schemas/simulation.ts';
import { ApiRequestError } from '../client/index.ts';
import type { ViewerSource } from './source.ts';
import { groupInfraErrors } from '../core/runner/refusal.ts';
import { resultsUsage } from '../core/metrics/role-usage.ts';

export interface LoadedResults {
  /** The file's name, unique among the files shown: the run's id in the viewer. */
  readonly name: string;
  readonly results: Results;
}

const notFound = (what: string, id: string): ApiRequestError => new ApiRequestError(404, 'not_found', `${what} ${id} not found`);

/** The file's run as the API shows a completed run. */
export const runOfResults = (id: string, { results }: LoadedResults): Run => {
  const { info } = results;
  const config = runConfigOfInfo(info);
  const sims = results.simulations;
  const infra = sims.filter((s) => s.termination_reason === 'infrastructure_error').length;
  const passed = sims.filter((s) => s.reward_info && Math.abs(s.reward_info.reward.value - 1) <= 1e-6).length;
  const timestamp = results.timestamp ?? sims[0]?.timestamp ?? '1970-01-01T00:00:00';
  return {
    id,
    status: 'completed',
    created_at: timestamp,
    updated_at: timestamp,
    schedule_id: null,
    error: null,
    rounds: null,
    stop_reason: null,
    config,
    counts: { total: sims.length, pending: 0, running: 0, done: sims.length, passed, failed: sims.length - passed - infra, infra_error: infra, cancelled: 0 },
    metrics: metricsAsDict(computeMetrics(results)) as Run['metrics'],
    error_bars: runErrorBars(sims),
    infra_errors: groupInfraErrors(sims),
    peak_calls_in_flight: null,
    usage: { ...resultsUsage(results), metered: null },
  };
};

/** A simulation's DB differences, worked out from its results file (the host reads the domain's data). */
export type DbDiffOf = (results: Results, simulation: SimulationRun) => Promise<DbDiff>;

export const resultsSource = (files: readonly LoadedResults[], dbDiffOf: DbDiffOf): ViewerSource => {
  const runs = files.map((file) => ({ run: runOfResults(file.name, file), results: file.results }));
  const find = (id: string) => runs.find((r) => r.run.id === id) ?? null;
  const located = (id: string): { results: Results; simulation: SimulationRun } | null => {
    for (const { results } of runs) {
      const simulation = results.simulations.find((s) => s.id === id);
      if (simulation) return { results, simulation };
    }
    return null;
  };
  const located404 = (id: string) => located(id) ?? Promise.reject(notFound('Simulation', id));
  return {
    actions: null,
    eventsUrl: () => null,
    listRuns: async (limit, filter = {}) =>
      runs
        .map(({ run }) => run)
        .filter(
          (run) =>
            (filter.status === undefined || run.status === filter.status) &&
            (filter.domain === undefined || run.config.domain === filter.domain) &&
            (filter.retrieval_config === undefined || run.config.retrieval_config === filter.retrieval_config) &&
            (filter.model === undefined || run.config.llm_agent === filter.model || run.config.llm_user === filter.model) &&
            (filter.kind === undefined || isCallerPlayed(run.config) === (filter.kind === 'external')),
        )
        .slice(0, limit),
    run: async (id) => find(id)?.run ?? Promise.reject(notFound('Run', id)),
    results: async (id) => find(id)?.results ?? Promise.reject(notFound('Run', id)),
    simulation: async (id) => (await located404(id)).simulation,
    dbDiff: async (id) => {
      const { results, simulation } = await located404(id);
      return dbDiffOf(results, simulation);
    },
  };
};
