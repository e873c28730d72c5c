// A run inside this Node process with the core engine (`--in-process`): no worker, no workerd — for machines
// where the Workers runtime cannot start. Same configuration, progress and results as a run through the API.
// Ctrl-C, or a provider refusal no retry can fix, stops starting simulations; the finished ones are returned.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunConfig } from '../core/schemas/run-config.ts';
import type { Results } from '../core/schemas/simulation.ts';
import { runBatch, runTasks, workUnits } from '../core/runner/batch.ts';
import { systemClock } from '../core/orchestrator/clock.ts';
import { loadDomain } from './data.ts';
import { clientFor } from './models.ts';
import { endpointClient } from '../core/llm/endpoint-client.ts';
import { gitCommit } from './git-commit.ts';
import type { ProgressDisplay } from './progress-display.ts';

export interface InProcessOutcome {
  readonly results: Results;
  readonly cancelled: boolean;
  /** The provider's reason when the run stopped early because no simulation could succeed. */
  readonly fatal: string | null;
}

/** A provider answer no retry can fix (bad key, no access, unknown model): the whole run would fail. */
export const fatalProviderError = (error: unknown): string | null => {
  const message = error instanceof Error ? error.message : String(error);
  return /\bHTTP (401|403|404)\b/.test(message) ? message : null;
};

export const runInProcess = async (
  config: RunConfig,
  llmBaseUrl: string | null,
  display: (total: number) => ProgressDisplay,
): Promise<InProcessOutcome> => {
  const { domain, data, guidelines } = await loadDomain(config.domain);
  const progress = display(workUnits(config, runTasks(config, data)).length);
  const client = clientFor(llmBaseUrl ?? undefined);
  const stop = new AbortController();
  let cancelled = false;
  let fatal: string | null = null;
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
      clients: { agent: config.agent_endpoint === null ? client : endpointClient(config.agent_endpoint.url, config.agent_endpoint.headers), user: client, judge: client },
      clock: systemClock,
      newId: randomUUID,
      sleep: (ms) => sleep(ms),
      gitCommit: gitCommit(),
      signal: stop.signal,
      onSimulation: (sim) =>
        progress.simulation(sim.id, {
          task_id: sim.task_id,
          trial: sim.trial,
          termination_reason: sim.termination_reason,
          reward: sim.reward_info ? sim.reward_info.reward.value : null,
        }),
      onAttemptError: (task, trial, error, attempt) => {
        progress.note(`retry: task ${task.id} trial ${trial} attempt ${attempt} failed: ${error instanceof Error ? error.message : String(error)}`);
        fatal ??= fatalProviderError(error);
        if (fatal !== null) stop.abort();
      },
    });
    return { results, cancelled, fatal };
  } finally {
    process.off('SIGINT', onInterrupt);
    progress.end();
  }
};
