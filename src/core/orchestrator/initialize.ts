// Episode initialization: environment state, message history and who speaks first
// (reference: Orchestrator.initialize).
import { participantMessage } from '../schemas/message.ts';
import type { Message } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { AgentKind, EpisodeState, Role } from '../schemas/episode.ts';
import type { TerminationReason } from '../schemas/simulation.ts';
import { Environment } from '../environment/environment.ts';
import { isoTimestamp } from './clock.ts';
import { envOptions, episodeView, isSolo, nowIso } from './deps.ts';
import { isOpeningTurn, step } from './step.ts';
import { pyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import type { EpisodeDeps } from './deps.ts';
import { isUserStop } from '../user/user-simulator.ts';
import { checkCommunication } from './communication.ts';

export const DEFAULT_MAX_STEPS = 200;
export const DEFAULT_MAX_ERRORS = 10;
export const GREETING = 'Hi! How can I help you today?';

export interface EpisodeSpec {
  readonly simulationId: string;
  readonly task: Task;
  readonly agent: AgentKind;
  readonly trial: number;
  readonly seed: number | null;
  readonly maxSteps?: number;
  readonly maxErrors?: number;
  readonly timeoutSeconds?: number | null;
  readonly enforceCommunicationProtocol?: boolean;
  /** The run's retrieval configuration as recorded (see effectiveRetrievalConfig). */
  readonly retrievalConfig?: string | null;
  readonly retrievalConfigKwargs?: Readonly<Record<string, PyValue>> | null;
}

/** History messages get synthetic timestamps one second apart, ending now, so they sort first. */
const restamp = (history: readonly Message[], nowMs: number): Message[] =>
  history.map((m, i) => ({ ...m, turn_idx: null, timestamp: isoTimestamp(nowMs - (history.length - i) * 1000) }));

// 0.0, not null, so that the greeting does not null the agent's cost.
const greeting = (timestamp: string): Message =>
  participantMessage('assistant', { content: GREETING, tool_calls: null, timestamp, cost: pyFloat(0) });

interface Routing {
  from: Role;
  to: Role;
  done: boolean;
  reason: TerminationReason | null;
}

/** Who receives the last history message (reference: the message-history branch of `initialize`). */
const routeFromHistory = (last: Message, solo: boolean): Routing => {
  const isToolCall = (last.role === 'assistant' || last.role === 'user') && last.tool_calls !== null;
  switch (last.role) {
    case 'assistant': {
      const stop = solo && last.content !== null && last.content.includes('###STOP###');
      return { from: 'agent', to: isToolCall ? 'env' : 'user', done: stop, reason: stop ? 'agent_stop' : null };
    }
    case 'user': {
      const stop = isUserStop(last);
      return { from: 'user', to: isToolCall ? 'env' : 'agent', done: stop, reason: stop ? 'user_stop' : null };
    }
    case 'tool':
      return { from: 'env', to: last.requestor === 'assistant' ? 'agent' : 'user', done: false, reason: null };
    default:
      throw new Error('Message history may only contain assistant, user and tool messages');
  }
};

/**
 * The episode before anyone speaks: environment initialized, history replayed, routing set. A solo agent
 * without history still owes its opening turn (`isOpeningTurn`); a host applies it like any agent turn.
 */
export const prepareEpisode = (spec: EpisodeSpec, deps: EpisodeDeps, environment?: Environment): { state: EpisodeState; environment: Environment } => {
  const startMs = deps.clock.nowMs();
  const solo = isSolo(spec);
  const initial = spec.task.initial_state;
  const history = restamp(initial?.message_history ?? [], startMs);
  const retrieval = { retrieval_config: spec.retrievalConfig ?? null, retrieval_config_kwargs: spec.retrievalConfigKwargs ?? null };
  const view = episodeView({ task: spec.task, ...retrieval }, deps);
  const env = environment ?? new Environment(view.domain, view.data, envOptions(spec, deps));
  env.setState(initial?.initialization_data ?? null, initial?.initialization_actions ?? null, history);

  const base = {
    simulation_id: spec.simulationId,
    domain: deps.domain.name,
    task: spec.task,
    agent: spec.agent,
    trial: spec.trial,
    seed: spec.seed,
    max_steps: spec.maxSteps ?? DEFAULT_MAX_STEPS,
    max_errors: spec.maxErrors ?? DEFAULT_MAX_ERRORS,
    timeout_seconds: spec.timeoutSeconds ?? null,
    enforce_communication_protocol: spec.enforceCommunicationProtocol ?? false,
    ...retrieval,
    step_count: 0,
    num_errors: 0,
    start_time: isoTimestamp(startMs),
    started_at_ms: startMs,
  };

  const opening = history.length > 0 ? openFromHistory(history, solo) : openFresh(solo, nowIso(deps));
  env.syncTools();
  return { state: checkCommunication({ ...base, ...opening, environment: env.changes() }), environment: env };
};

export const initializeEpisode = async (spec: EpisodeSpec, deps: EpisodeDeps): Promise<EpisodeState> => {
  const { state, environment } = prepareEpisode(spec, deps);
  return isOpeningTurn(state) ? step(state, deps, environment) : state;
};

type Opening = Pick<EpisodeState, 'trajectory' | 'from_role' | 'to_role' | 'done' | 'termination_reason'>;

const openFromHistory = (history: Message[], solo: boolean): Opening => {
  const routing = routeFromHistory(history[history.length - 1]!, solo);
  return {
    trajectory: history,
    from_role: routing.from,
    to_role: routing.to,
    done: routing.done,
    termination_reason: routing.reason,
  };
};

/** Without history the user simulator speaks first to the fixed greeting; a solo agent opens itself. */
const openFresh = (solo: boolean, now: () => string): Opening =>
  solo
    ? { trajectory: [], from_role: 'env', to_role: 'agent', done: false, termination_reason: null }
    : { trajectory: [greeting(now())], from_role: 'agent', to_role: 'user', done: false, termination_reason: null };
