// A run as the API shows it: counts from its RunDO (pending, running, cancelled) and D1 (finished), metrics
// over the simulations finished so far, and the reference results file.
import { computeMetrics, isSuccessful, metricsAsDict } from '../../core/metrics/agent-metrics.ts';
import { runErrorBars } from '../../core/metrics/error-bars.ts';
import { runInfo, runTasks } from '../../core/runner/batch.ts';
import { isoTimestamp } from '../../core/orchestrator/clock.ts';
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import type { Run, RunCounts, RunMetrics, RunUsage } from '../../api/index.ts';
import { RunStopReasonSchema } from '../../api/index.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { isExternalAgent } from '../../core/schemas/episode.ts';
import { usageTotals } from '../../core/metrics/role-usage.ts';
import { runSpend } from '../db/spend.ts';
import { decodeConfig } from '../db/runs.ts';
import type { RunRow } from '../db/runs.ts';
import { runSimulationPages, runSimulations, simulationSummaries } from '../db/simulations.ts';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import type { SimulationSummary } from '../db/simulations.ts';
import { loadDomain } from '../data/domains.ts';
import { groupInfraErrors } from '../../core/runner/refusal.ts';
import { providerFor } from './models.ts';
import { providerGate } from './provider-gate.ts';
import { decodeRounds } from './rounds.ts';

/** Finished simulations of a run by outcome, kept up to date as more finish. */
export interface FinishedTally {
  done: number;
  passed: number;
  infra: number;
}

/** Adds `finished` to `into` (a new tally by default). */
export const tallyFinished = (finished: readonly SimulationSummary[], into: FinishedTally = { done: 0, passed: 0, infra: 0 }): FinishedTally => {
  for (const s of finished) {
    into.done++;
    if (s.terminationReason === 'infrastructure_error') into.infra++;
    else if (isSuccessful(s.reward ?? 0)) into.passed++;
  }
  return into;
};

export const runCounts = async (env: Env, row: RunRow, finished: FinishedTally): Promise<RunCounts> => {
  const progress = await env.RUN.getByName(row.id).progress();
  return {
    total: row.total,
    pending: progress.pending,
    running: progress.running,
    done: finished.done,
    passed: finished.passed,
    failed: finished.done - finished.passed - finished.infra,
    infra_error: finished.infra,
    cancelled: progress.cancelled,
  };
};

/** The run without metrics (as listed). */
export const runListing = async (env: Env, row: RunRow): Promise<Omit<Run, 'metrics' | 'error_bars' | 'usage' | 'infra_errors' | 'peak_calls_in_flight'>> => ({
  id: row.id,
  status: row.status,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  schedule_id: row.scheduleId,
  error: row.error,
  config: decodeConfig(row.config),
  counts: await runCounts(env, row, tallyFinished(await simulationSummaries(env.DB, row.id))),
  rounds: decodeRounds(row.rounds),
  stop_reason: row.stopReason === null ? null : RunStopReasonSchema.parse(row.stopReason),
});

/**
 * Tokens and cost by role over the run's finished simulations, as each recorded them (`info.usage`). The models
 * name the participants whose price applies (an external agent or user has none).
 */
const usageOfRun = async (env: Env, runId: string, config: RunConfig, simulations: readonly SimulationRun[]): Promise<RunUsage> => ({
  ...usageTotals(simulations, {
    agent: isExternalAgent(config.agent) ? null : config.llm_agent,
    user: config.user === 'external_user' ? null : config.llm_user,
  }),
  metered: await runSpend(env.DB, runId),
});

export const runView = async (env: Env, row: RunRow): Promise<Run> => {
  const listing = await runListing(env, row);
  const simulations = await runSimulations(env.DB, row.id);
  const metrics = metricsAsDict(computeMetrics({ info: listing.config, simulations }));
  return { ...listing, metrics: metrics as RunMetrics, error_bars: runErrorBars(simulations), usage: await usageOfRun(env, row.id, listing.config, simulations), infra_errors: groupInfraErrors(simulations), peak_calls_in_flight: await peakCallsInFlight(env, row) };
};

/** The run's peak of model calls in flight, from its provider's gate (null when the provider cannot be named now). */
const peakCallsInFlight = async (env: Env, row: RunRow): Promise<number | null> => {
  const provider = await providerFor(env, row.tenantId).catch(() => null);
  return provider === null ? null : providerGate(env, provider.endpoint).stub.runPeak(row.id);
};

/**
 * The reference results file of the run (its info, tasks and the simulations finished so far) as a stream of
 * UTF-8 text: the simulations are read and written a page at a time, so memory stays flat however large the
 * run. The text is `dumpsPy` of the whole Results, byte for byte: `dumpsPy` writes a dict's entries in order,
 * separated by `", "`, so the file is its head, the simulations and its tail put together.
 */
export const runResultsStream = async (env: Env, row: RunRow, withMessages = true): Promise<ReadableStream<Uint8Array>> => {
  const config = decodeConfig(row.config);
  const loaded = await loadDomain(env.ASSETS, config.domain);
  const head: Omit<Results, 'simulations' | 'simulation_index'> = {
    timestamp: isoTimestamp(Date.parse(row.createdAt)),
    info: runInfo(config, { ...loaded, gitCommit: env.GIT_COMMIT }),
    tasks: runTasks(config, loaded.data),
  };
  const tail: Pick<Results, 'simulation_index'> = { simulation_index: null };
  const headText = dumpsPy(head as unknown as PyInput);
  const tailText = dumpsPy(tail as unknown as PyInput);
  const pages = runSimulationPages(env.DB, row.id, withMessages);
  const encoder = new TextEncoder();
  let written = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${headText.slice(0, -1)}, "simulations": [`));
    },
    async pull(controller) {
      const page = await pages.next();
      if (page.done) {
        controller.enqueue(encoder.encode(`], ${tailText.slice(1)}`));
        controller.close();
        return;
      }
      const text = page.value.map((s) => dumpsPy(s as unknown as PyInput)).join(', ');
      controller.enqueue(encoder.encode(written === 0 ? text : `, ${text}`));
      written += page.value.length;
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
};

/** Tokens and cost by role over the run's finished simulations (their records only, never their messages), and its metered spend. */
export const runUsage = async (env: Env, row: RunRow): Promise<RunUsage> =>
  usageOfRun(env, row.id, decodeConfig(row.config), await runSimulations(env.DB, row.id));
