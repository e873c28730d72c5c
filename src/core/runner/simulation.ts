// Running one simulation end to end, with the reference's whole-simulation retries: any exception in an
// attempt re-runs it from scratch with the same seed; when attempts run out the simulation is recorded as an
// infrastructure error (excluded from metrics) — never as an agent failure.
import { pyFloat } from '../py/index.ts';
import type { SimulationRun } from '../schemas/simulation.ts';
import type { EpisodeState } from '../schemas/episode.ts';
import { initializeEpisode } from '../orchestrator/initialize.ts';
import type { EpisodeSpec } from '../orchestrator/initialize.ts';
import { step } from '../orchestrator/step.ts';
import { finalizeEpisode } from '../orchestrator/finalize.ts';
import { episodeView, isSolo, nowIso } from '../orchestrator/deps.ts';
import { domainPolicy } from '../environment/environment.ts';
import type { EpisodeDeps } from '../orchestrator/deps.ts';
import { isoTimestamp } from '../orchestrator/clock.ts';
import { isRefusal } from './refusal.ts';
import { retriesAfter } from '../episode/retry.ts';
import { evaluateSimulation } from '../evaluator/evaluator.ts';
import type { EvaluationContext } from '../evaluator/context.ts';
import { meteredClient } from '../llm/meter.ts';
import { emptyRoleUsage, emptyUsageByRole, messagesUsage, usageLedger, withUsage } from '../metrics/role-usage.ts';
import { isExternalAgent } from '../schemas/episode.ts';
import { GRADING_STAGE, isGradingFailure, markGradingFailure } from './grading-failure.ts';

/** An episode to run; its simulation id is drawn per attempt. */
export type SimulationSpec = Omit<EpisodeSpec, 'simulationId'>;

export interface SimulationDeps extends EpisodeDeps {
  readonly newId: () => string;
  readonly judge: EvaluationContext['judge'];
  /** Called after every persisted transition; a host may store the state here. */
  readonly onStep?: (state: EpisodeState) => void | Promise<void>;
}

/**
 * Evaluates a finished episode and returns its complete SimulationRun, with the usage of its calls by role in
 * `info.usage`: the agent's and user's from their messages, the judge's from this evaluation, the tools'
 * from the episode (the review's are added when it is reviewed).
 */
export const completeEpisode = async (state: EpisodeState, deps: SimulationDeps): Promise<SimulationRun> => {
  const view = episodeView(state, deps);
  const simulation = finalizeEpisode(state, domainPolicy(view.data, isSolo(state)), deps.clock);
  const judged = usageLedger();
  const judge = 'recorded' in deps.judge ? deps.judge : { ...deps.judge, client: meteredClient(deps.judge.client, judged.meter) };
  const rewardInfo = await evaluateSimulation(simulation, state.task, {
    domain: view.domain,
    data: view.data,
    solo: isSolo(state),
    strictReplay: true,
    now: nowIso(deps),
    judge,
    onUnexpectedToolError: deps.onUnexpectedToolError,
  }).catch((error: unknown) => {
    throw markGradingFailure(error);
  });
  const messages = simulation.messages ?? [];
  return withUsage(
    { ...simulation, reward_info: rewardInfo },
    {
      ...emptyUsageByRole(),
      agent: messagesUsage(messages, 'assistant', isExternalAgent(state.agent) ? null : deps.agentModel.model),
      user: messagesUsage(messages, 'user', deps.userModel?.model ?? null),
      judge: judged.usage(),
      retrieval: state.retrieval_usage ?? emptyRoleUsage(),
    },
  );
};

/** Steps an episode from `state` until done, then finalizes and evaluates it (a fresh episode, or a fork's). */
export const continueSimulation = async (state: EpisodeState, deps: SimulationDeps): Promise<SimulationRun> => {
  await deps.onStep?.(state);
  while (!state.done) {
    state = await step(state, deps);
    await deps.onStep?.(state);
  }
  return completeEpisode(state, deps);
};

/** One attempt: initialize, step until done, finalize and evaluate. */
export const runSimulation = async (spec: SimulationSpec, deps: SimulationDeps): Promise<SimulationRun> =>
  continueSimulation(await initializeEpisode({ ...spec, simulationId: deps.newId() }, deps), deps);

export interface RetryPolicy {
  /** Retries after the first attempt (reference default 3, i.e. 4 attempts). */
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly onAttemptError?: (error: unknown, attempt: number) => void;
  /** Once aborted, a failed attempt is not tried again. */
  readonly signal?: AbortSignal;
}

/**
 * The error as recorded: its type and message. The traceback is the last line of a Python traceback
 * (`Type: message`), never the stack frames, which would show internal file paths to whoever reads results.
 */
const describe = (error: unknown): { message: string; type: string; traceback: string } => {
  const [message, type] = error instanceof Error ? [error.message, error.name] : [String(error), typeof error];
  return { message, type, traceback: `${type}: ${message}` };
};

/** The record of a simulation that failed every attempt (reference: run_with_retry's placeholder). */
export const infrastructureErrorRun = (
  spec: SimulationSpec,
  id: string,
  nowMs: number,
  error: unknown,
  attempts: number,
  /** Whether the failure was raised while grading, when `error` no longer carries its mark (a stored message). */
  raisedWhileGrading = isGradingFailure(error),
): SimulationRun => {
  const now = isoTimestamp(nowMs);
  const { message, type, traceback } = describe(error);
  return {
    id,
    task_id: spec.task.id,
    timestamp: now,
    start_time: now,
    end_time: now,
    duration: pyFloat(0),
    termination_reason: 'infrastructure_error',
    agent_cost: null,
    user_cost: null,
    agent_usage: null,
    reward_info: null,
    messages: [],
    ticks: null,
    trial: spec.trial,
    seed: spec.seed,
    mode: 'half_duplex',
    speech_environment: null,
    review: null,
    user_only_review: null,
    info: { error: message, error_type: type, error_traceback: traceback, failed_after_attempts: attempts, ...(raisedWhileGrading ? { error_stage: GRADING_STAGE } : {}) },
    auth_classification: null,
    hallucination_retries_used: 0,
    hallucination_check: null,
    provider_session_id: null,
    policy: null,
    effect_timeline: null,
  };
};

export const runWithRetry = async (
  spec: SimulationSpec,
  deps: SimulationDeps,
  retry: RetryPolicy,
): Promise<SimulationRun> => {
  let lastError: unknown;
  let attempt = 1;
  for (; ; attempt++) {
    try {
      return await runSimulation(spec, deps);
    } catch (error) {
      lastError = error;
      retry.onAttemptError?.(error, attempt);
      if (!retriesAfter({ attempt, maxRetries: retry.maxRetries, refused: isRefusal(error), stopped: retry.signal?.aborted === true })) break;
      await retry.sleep(retry.retryDelayMs);
    }
  }
  return infrastructureErrorRun(spec, deps.newId(), deps.clock.nowMs(), lastError, attempt);
};
