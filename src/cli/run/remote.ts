// A run through the tau2-edge API: on the server given by --api, or on a local worker this command starts and
// stops. Progress comes from the run's event stream; Ctrl-C cancels the run before the worker stops.
import { randomUUID } from 'node:crypto';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import type { RunStatus } from '../../api/index.ts';
import type { Results } from '../../core/schemas/simulation.ts';
import { ApiRequestError, apiClient } from '../../client/index.ts';
import type { ApiClient } from '../../client/index.ts';
import { followRun } from './follow-run.ts';
import { gitCommit } from './git-commit.ts';
import { localCredentialsKey, startLocalWorker } from '../local/worker.ts';
import type { LocalWorker } from '../local/worker.ts';
import type { ProgressDisplay } from './progress-display.ts';
import { RUN_SIZE_LIMITS } from '../../worker/tenancy/run-size-limits.ts';
import { PROVIDERS, PROVIDER_VARS } from '../../core/llm/providers.ts';

/**
 * The operator limits on a run's size and on the OpenEnv sockets a tenant opens, lifted: on their own machine the
 * user is the operator (a deployment keeps the limits wrangler.toml sets).
 */
const unlimitedRunSize = (): Record<string, string> =>
  Object.fromEntries([...RUN_SIZE_LIMITS, 'LIMIT_MAX_SOCKETS_PER_TENANT'].map((name) => [name, String(Number.MAX_SAFE_INTEGER)]));

/**
 * The settings a local worker gets: every provider variable of the registry as this environment has it, the
 * OpenAI-compatible endpoint as the --llm-base-url flag gives it, and the commit recorded in results. No API key:
 * it listens on 127.0.0.1 only, so endpoints on this machine are allowed (a local agent server), secrets such as
 * --agent-header values are sealed under `credentialsKey`, and no operator limit bounds the size of a run or its sockets.
 */
export const localWorkerEnv = (llmBaseUrl: string | null, env: NodeJS.ProcessEnv, commit: string, credentialsKey: string): Record<string, string> => {
  const vars: Record<string, string> = { GIT_COMMIT: commit, ALLOW_LOCAL_PROVIDERS: 'true', CREDENTIALS_KEY: credentialsKey, ...unlimitedRunSize() };
  for (const name of PROVIDER_VARS) if (env[name]) vars[name] = env[name];
  if (llmBaseUrl !== null) vars[PROVIDERS.openai.baseUrlVar] = llmBaseUrl;
  return vars;
};

export interface RemoteRunOptions {
  readonly config: RunConfig;
  readonly api: string | null;
  readonly llmBaseUrl: string | null;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs `work` with a client of the API at `api` (TAU2_EDGE_API_KEY as its key), or of a local worker started
 * for it and stopped after.
 */
export const withApi = async <T>(
  api: string | null,
  llmBaseUrl: string | null,
  out: (text: string) => void,
  work: (client: ApiClient) => Promise<T>,
  workerVars: Readonly<Record<string, string>> = {},
): Promise<T> => {
  let worker: LocalWorker | null = null;
  if (api === null) {
    out('starting the local worker…');
    worker = await startLocalWorker({ env: { ...localWorkerEnv(llmBaseUrl, process.env, gitCommit(), await localCredentialsKey()), ...workerVars } });
    out(`local worker ready on ${worker.url} (log: ${worker.logFile})`);
  }
  try {
    return await work(apiClient(api ?? worker!.url, api === null ? undefined : process.env.TAU2_EDGE_API_KEY));
  } finally {
    await worker?.stop();
  }
};

export const runThroughApi = async (
  options: RemoteRunOptions,
  display: (total: number) => ProgressDisplay,
  out: (text: string) => void,
): Promise<{ results: Results; cancelled: boolean; fatal: string | null; peakCallsInFlight: number | null }> =>
  withApi(options.api, options.llmBaseUrl, out, async (client) => {
    const { run_id: runId } = await client.createRun(options.config, randomUUID());
    const run = await client.run(runId);
    out(`run ${runId}: ${run.counts.total} simulations`);
    const progress = display(run.counts.total);
    const cancel = new AbortController();
    const onInterrupt = (): void => cancel.abort();
    let status: RunStatus;
    process.once('SIGINT', onInterrupt);
    try {
      status = await followRun(client, runId, {
        signal: cancel.signal,
        onSimulation: (event) =>
          progress.simulation(event.simulation_id, {
            task_id: event.task_id,
            trial: event.trial,
            termination_reason: event.termination_reason,
            reward: event.reward,
          }),
        onDisconnect: (error) => progress.note(`event stream lost (${message(error)}); reconnecting`),
      });
    } catch (error) {
      if (!cancel.signal.aborted) throw error;
      progress.note(`interrupted: cancelling run ${runId}`);
      status = await client.cancel(runId).then(
        (run) => run.status,
        (e: unknown) => {
          // 409: it completed meanwhile.
          if (e instanceof ApiRequestError && e.status === 409) return 'completed' as const;
          throw e;
        },
      );
    } finally {
      process.off('SIGINT', onInterrupt);
      progress.end();
    }
    // A failed run (stopped by a provider's refusal, or never started) keeps what finished.
    const ended = await client.run(runId);
    const fatal = status === 'failed' ? (ended.error ?? 'no reason recorded') : null;
    return { results: await client.results(runId), cancelled: status === 'cancelled', fatal, peakCallsInFlight: ended.peak_calls_in_flight };
  },
  // The local worker's provider cap is the run's concurrency (--provider-limit lowered it already): never below it.
  { PROVIDER_MAX_CONCURRENCY: String(options.config.max_concurrency) });
