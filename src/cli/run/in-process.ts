// A run inside this Node process with the core engine (`--in-process`): no worker, no workerd — for machines
// where the Workers runtime cannot start. Same configuration, progress and results as a run through the API.
// Ctrl-C, or a provider refusal no retry can fix, stops starting simulations; the finished ones are returned.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { pendingUnits, runBatch, runTasks } from '../../core/runner/batch.ts';
import type { BatchDeps } from '../../core/runner/batch.ts';
import { startA2aSeats } from './a2a/seats.ts';
import type { A2aSeats } from './a2a/seats.ts';
import { systemClock } from '../../core/orchestrator/clock.ts';
import { loadDomain } from '../data.ts';
import { clientFor } from './models.ts';
import { cliToolServices } from './tool-services.ts';
import { endpointClient } from '../../core/llm/endpoint-client.ts';
import { gitCommit } from './git-commit.ts';
import type { ProgressDisplay } from './progress-display.ts';
import type { RunOptions } from './flags.ts';
import { runLog } from './log.ts';
import { callsInFlight } from './calls-in-flight.ts';
import { callNames, inSimulationScope, loggedClient, scopedNewId } from './llm-call-log.ts';
import path from 'node:path';
import { infraErrorOf, isRefusal, refusalWatch, stoppedBy } from '../../core/runner/refusal.ts';

export interface InProcessOutcome {
  readonly results: Results;
  readonly cancelled: boolean;
  /** Why the run stopped early (a provider's refusal no simulation could get past), or null. */
  readonly fatal: string | null;
  /** The most model calls in flight at once. */
  readonly peakCallsInFlight: number | null;
}

export type InProcessOptions = Pick<RunOptions, 'llmBaseUrl' | 'saveTo' | 'logLevel' | 'verboseLogs' | 'llmLogMode'>;

/** What each simulation runs inside: its call-log scope (--verbose-logs), its a2a agent's seat. */
const aroundUnit = (verboseLogs: boolean, seats: A2aSeats | null): Pick<BatchDeps, 'aroundUnit'> => {
  const logged: BatchDeps['aroundUnit'] = verboseLogs ? (unit, run) => inSimulationScope(unit.task.id, run) : undefined;
  if (seats === null) return logged === undefined ? {} : { aroundUnit: logged };
  return { aroundUnit: (unit, run) => seats.around(() => (logged === undefined ? run() : logged(unit, run))) };
};

export const runInProcess = async (
  config: RunConfig,
  options: InProcessOptions,
  display: (total: number) => ProgressDisplay,
): Promise<InProcessOutcome> => {
  const { domain, data, guidelines } = await loadDomain(config.domain);
  // The agent's card is read before the run starts: an agent that cannot be reached stops it at once.
  const endpoint = config.agent_endpoint;
  const seats = config.agent === 'a2a' && endpoint !== null ? await startA2aSeats(endpoint.url, { headers: endpoint.headers }) : null;
  const progress = display(pendingUnits(config, runTasks(config, data)).length);
  const calls = callsInFlight();
  const client = calls.counted(clientFor(options.llmBaseUrl ?? undefined));
  const clients = {
    agent: seats !== null ? seats.client : endpoint === null ? client : calls.counted(endpointClient(endpoint.url, endpoint.headers)),
    user: client,
    judge: client,
  };
  const names = callNames(config.agent);
  const saveDir = path.dirname(options.saveTo);
  const log = runLog(options.logLevel, (line) => progress.note(line));
  const stop = new AbortController();
  let cancelled = false;
  let fatal: string | null = null;
  const refusals = refusalWatch();
  const onInterrupt = (): void => {
    cancelled = true;
    progress.note('interrupted: finishing the simulations in flight');
    stop.abort();
  };
  process.once('SIGINT', onInterrupt);
  try {
    const results = await runBatch(config, {
      domain,
      data,
      guidelines,
      clients: options.verboseLogs
        ? {
            agent: loggedClient(clients.agent, names.agent, saveDir, options.llmLogMode),
            user: loggedClient(clients.user, names.user, saveDir, options.llmLogMode),
            judge: loggedClient(clients.judge, names.judge, saveDir, options.llmLogMode),
          }
        : clients,
      clock: systemClock,
      toolServices: cliToolServices(client, options.llmBaseUrl ?? undefined),
      newId: options.verboseLogs ? scopedNewId(randomUUID) : randomUUID,
      ...aroundUnit(options.verboseLogs, seats),
      onUnexpectedToolError: (toolName, error) => log('ERROR', `unexpected exception in tool ${toolName}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`),
      sleep: (ms) => sleep(ms),
      gitCommit: gitCommit(),
      signal: stop.signal,
      onSimulation: (sim) => {
        progress.simulation(sim.id, {
          task_id: sim.task_id,
          trial: sim.trial,
          termination_reason: sim.termination_reason,
          reward: sim.reward_info ? sim.reward_info.reward.value : null,
        });
        const refusal = refusals.note(sim.task_id, infraErrorOf(sim));
        if (refusal !== null && fatal === null) {
          fatal = stoppedBy(refusal);
          stop.abort();
        }
      },
      onAttemptError: (task, trial, error, attempt) => {
        const message = error instanceof Error ? error.message : String(error);
        progress.note(`${isRefusal(error) ? 'refused' : 'retry'}: task ${task.id} trial ${trial} attempt ${attempt} failed: ${message}`);
      },
    });
    return { results, cancelled, fatal, peakCallsInFlight: calls.peak() };
  } finally {
    process.off('SIGINT', onInterrupt);
    await seats?.close();
    progress.end();
  }
};
