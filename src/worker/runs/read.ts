// A run as the API shows it: counts from its RunDO (pending, running, cancelled) and D1 (finished), metrics
// over the simulations finished so far, and the reference results file.
import { computeMetrics, isSuccessful, metricsAsDict } from '../../core/metrics/agent-metrics.ts';
import { runInfo, runTasks } from '../../core/runner/batch.ts';
import { isoTimestamp } from '../../core/orchestrator/clock.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import type { Run, RunCounts, RunMetrics } from '../../core/schemas/api.ts';
import { decodeConfig } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { runSimulations, simulationSummaries } from '../db/simulations.ts';
import type { SimulationSummary } from '../db/simulations.ts';
import { loadDomain } from '../data/domains.ts';

export const runCounts = async (env: Env, row: RunRow, finished: readonly SimulationSummary[]): Promise<RunCounts> => {
  const progress = await env.RUN.getByName(row.id).progress();
  const infra = finished.filter((s) => s.terminationReason === 'infrastructure_error').length;
  const passed = finished.filter((s) => s.terminationReason !== 'infrastructure_error' && isSuccessful(s.reward ?? 0)).length;
  return {
    total: row.total,
    pending: progress.pending,
    running: progress.running,
    done: finished.length,
    passed,
    failed: finished.length - passed - infra,
    infra_error: infra,
    cancelled: progress.cancelled,
  };
};

/** The run without metrics (as listed). */
export const runListing = async (env: Env, row: RunRow): Promise<Omit<Run, 'metrics'>> => ({
  id: row.id,
  status: row.status,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  schedule_id: row.scheduleId,
  error: row.error,
  config: decodeConfig(row.config),
  counts: await runCounts(env, row, await simulationSummaries(env.DB, row.id)),
});

export const runView = async (env: Env, row: RunRow): Promise<Run> => {
  const listing = await runListing(env, row);
  const simulations = await runSimulations(env.DB, row.id, false);
  const metrics = metricsAsDict(computeMetrics({ info: listing.config, simulations }));
  return { ...listing, metrics: metrics as RunMetrics };
};

/** The reference results file of the run: its info, tasks and the simulations finished so far. */
export const runResults = async (env: Env, row: RunRow): Promise<Results> => {
  const config = decodeConfig(row.config);
  const loaded = await loadDomain(env.ASSETS, config.domain);
  return {
    timestamp: isoTimestamp(Date.parse(row.createdAt)),
    info: runInfo(config, { ...loaded, gitCommit: env.GIT_COMMIT }),
    tasks: runTasks(config, loaded.data),
    simulations: await runSimulations(env.DB, row.id, true),
    simulation_index: null,
  };
};
