// Running a whole evaluation: task selection, per-trial seeds, bounded concurrency, results and info
// (reference: src/tau2/runner/batch.py).
import pLimit from 'p-limit';
import type { PyValue } from '../py/index.ts';
import type { Info, Results, SimulationRun } from '../schemas/simulation.ts';
import type { Task } from '../schemas/task.ts';
import type { RunConfig } from '../schemas/run-config.ts';
import { isExternalAgent, isSoloAgent } from '../schemas/episode.ts';
import type { AnyDomain, DomainData } from '../environment/domain.ts';
import { domainPolicy } from '../environment/environment.ts';
import { effectiveRetrievalConfig, runPolicy } from '../environment/episode-domain.ts';
import type { LlmClient } from '../llm/types.ts';
import type { ToolServices } from '../environment/tool-services.ts';
import type { UserGuidelines } from '../user/user-simulator.ts';
import { isValidTaskFor } from '../agents/agent.ts';
import { selectTasks } from '../tasks.ts';
import type { Clock } from '../orchestrator/clock.ts';
import { isoTimestamp } from '../orchestrator/clock.ts';
import { trialSeeds } from './seeds.ts';
import { runWithRetry } from './simulation.ts';
import type { SimulationDeps, SimulationSpec } from './simulation.ts';

export interface BatchDeps {
  readonly domain: AnyDomain;
  readonly data: DomainData;
  readonly guidelines: UserGuidelines;
  /** One client per role, so agent, user and judge may use different providers. */
  readonly clients: { readonly agent: LlmClient; readonly user: LlmClient; readonly judge: LlmClient };
  readonly clock: Clock;
  readonly newId: () => string;
  readonly sleep: (ms: number) => Promise<void>;
  readonly gitCommit: string;
  readonly onSimulation?: (simulation: SimulationRun, done: number, total: number) => void;
  readonly onAttemptError?: (task: Task, trial: number, error: unknown, attempt: number) => void;
  readonly onUnexpectedToolError?: (toolName: string, error: unknown) => void;
  /** For tools whose work awaits (dense retrieval, the reranker). */
  readonly toolServices?: ToolServices;
  /** Wraps each unit's run (all its attempts), e.g. so that a host can tie its own logs to the unit. */
  readonly aroundUnit?: <T>(unit: SimulationSpec, run: () => Promise<T>) => Promise<T>;
  /** Once aborted, no further simulation starts; those in flight finish and the results cover them. */
  readonly signal?: AbortSignal;
}

/** The tasks a run covers: split, ids and count, then the agent's own task filter. */
export const runTasks = (config: RunConfig, data: DomainData): Task[] =>
  selectTasks(config.task_set_name ?? config.domain, data.tasks, data.splits, {
    split: config.task_split_name,
    taskIds: config.task_ids,
    numTasks: config.num_tasks,
  }).filter((task) => isValidTaskFor(config.agent, task));

export const runInfo = (config: RunConfig, deps: Pick<BatchDeps, 'domain' | 'data' | 'guidelines' | 'gitCommit'>): Info => {
  return {
    git_commit: deps.gitCommit,
    num_trials: config.num_trials,
    max_steps: config.max_steps,
    max_errors: config.max_errors,
    user_info: {
      implementation: config.user,
      // An external user's model, if any, is its own.
      llm: config.user === 'external_user' ? null : config.llm_user,
      llm_args: config.user === 'external_user' ? null : (config.llm_args_user as Record<string, PyValue>),
      // The reference records the non-tools guideline file here, whichever the simulator used.
      global_simulation_guidelines: deps.guidelines.plain,
      voice_settings: null,
      persona_config: null,
    },
    agent_info: {
      implementation: config.agent,
      // An external agent's model, if any, is its own.
      llm: isExternalAgent(config.agent) ? null : config.llm_agent,
      llm_args: isExternalAgent(config.agent) ? null : (config.llm_args_agent as Record<string, PyValue>),
      voice_settings: null,
    },
    environment_info: {
      domain_name: deps.domain.name,
      policy: runPolicy(deps.domain, deps.data, retrievalChoice(config), domainPolicy(deps.data, isSoloAgent(config.agent))),
      tool_defs: null,
    },
    seed: config.seed,
    text_streaming_config: { chunk_by: 'words', chunk_size: 1 },
    speech_complexity: null,
    audio_native_config: null,
    // The reference's config validator fills in the domain's default, so results record it.
    retrieval_config: effectiveRetrievalConfig(deps.domain, config.retrieval_config),
    retrieval_config_kwargs: config.retrieval_config_kwargs as Record<string, PyValue> | null,
  };
};

/** The run's retrieval configuration as its episodes take it. */
const retrievalChoice = (config: RunConfig) => ({
  retrievalConfig: config.retrieval_config,
  retrievalConfigKwargs: config.retrieval_config_kwargs as Readonly<Record<string, PyValue>> | null,
});

/** The work unit of one task and trial, given the trial's seed (see trialSeeds). */
export const workUnit = (config: RunConfig, task: Task, trial: number, seed: number): SimulationSpec => ({
  task,
  agent: config.agent,
  trial,
  seed,
  maxSteps: config.max_steps,
  maxErrors: config.max_errors,
  timeoutSeconds: config.timeout,
  enforceCommunicationProtocol: config.enforce_communication_protocol,
  ...retrievalChoice(config),
});

/** Work units in trial-major order, each with its trial's seed. */
export const workUnits = (config: RunConfig, tasks: readonly Task[]): SimulationSpec[] =>
  trialSeeds(config.seed, config.num_trials).flatMap((seed, trial) => tasks.map((task) => workUnit(config, task, trial, seed)));

/** The work units a run still has to do: all of them but the episodes it skips (a resumed run's finished ones). */
export const pendingUnits = (config: RunConfig, tasks: readonly Task[]): SimulationSpec[] => {
  const skipped = new Set(config.skip_episodes.map((e) => `${e.trial}/${e.task_id}`));
  return workUnits(config, tasks).filter((u) => !skipped.has(`${u.trial}/${u.task.id}`));
};

/** What every simulation of a run needs: the run's models (agent, user unless solo, judge) on the given clients. */
export const simulationDepsFor = (
  config: RunConfig,
  deps: Pick<BatchDeps, 'domain' | 'data' | 'guidelines' | 'clients' | 'clock' | 'newId' | 'onUnexpectedToolError' | 'toolServices'>,
): SimulationDeps => {
  const model = (client: LlmClient, name: string, args: Record<string, PyValue>) => ({ client, model: name, llmArgs: args });
  return {
    domain: deps.domain,
    data: deps.data,
    guidelines: deps.guidelines,
    agentModel: model(deps.clients.agent, config.llm_agent, config.llm_args_agent as Record<string, PyValue>),
    userModel:
      config.user === 'dummy_user'
        ? null
        : model(deps.clients.user, config.llm_user, config.llm_args_user as Record<string, PyValue>),
    judge: model(deps.clients.judge, config.llm_judge, config.llm_args_judge as Record<string, PyValue>),
    clock: deps.clock,
    newId: deps.newId,
    onUnexpectedToolError: deps.onUnexpectedToolError,
    toolServices: deps.toolServices,
  };
};

/** Runs every unit with at most `max_concurrency` in flight; simulations are kept in completion order. */
export const runBatch = async (config: RunConfig, deps: BatchDeps): Promise<Results> => {
  const tasks = runTasks(config, deps.data);
  if (tasks.length === 0) throw new Error('No tasks to run');
  const units = pendingUnits(config, tasks);
  const simulations: SimulationRun[] = [];
  const simulationDeps = simulationDepsFor(config, deps);
  // Units start in order, at most max_concurrency at a time; once aborted, the queued ones start nothing.
  const limit = pLimit(config.max_concurrency);
  const runUnit = async (unit: SimulationSpec): Promise<void> => {
    if (deps.signal?.aborted) return;
    const attempts = () =>
      runWithRetry(unit, simulationDeps, {
        maxRetries: config.max_retries,
        retryDelayMs: config.retry_delay * 1000,
        sleep: deps.sleep,
        onAttemptError: (error, attempt) => deps.onAttemptError?.(unit.task, unit.trial, error, attempt),
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
    const simulation = await (deps.aroundUnit ? deps.aroundUnit(unit, attempts) : attempts());
    simulations.push(simulation);
    deps.onSimulation?.(simulation, simulations.length, units.length);
  };
  await Promise.all(units.map((unit) => limit(() => runUnit(unit))));
  return {
    timestamp: isoTimestamp(deps.clock.nowMs()),
    info: runInfo(config, deps),
    tasks,
    simulations,
    simulation_index: null,
  };
};
