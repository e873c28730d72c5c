// One orchestrator transition of the half-duplex protocol (reference: Orchestrator.step and
// _check_termination). The state is a plain value: callers persist it between steps. A transition is either a
// participant's turn (a model answers; whoever hosts the episode may obtain that answer elsewhere and apply it
// with `applyMessage`) or the environment's hop (the pending tool calls, run right here).
import type { EpisodeState } from '../schemas/episode.ts';
import type { Message, ParticipantMessage, ToolMessage } from '../schemas/message.ts';
import type { Environment } from '../environment/environment.ts';
import { respond } from '../agents/participant.ts';
import type { ModelConfig, Participant } from '../agents/participant.ts';
import { agentOf, environmentOf, isSolo, userOf } from './deps.ts';
import type { EpisodeDeps } from './deps.ts';
import { checkCommunication } from './communication.ts';
import { addRoleUsage, emptyRoleUsage, usageLedger } from '../metrics/role-usage.ts';

export type TurnRole = 'agent' | 'user';

const lastMessage = (state: EpisodeState): Message => {
  const last = state.trajectory[state.trajectory.length - 1];
  if (!last) throw new Error('Episode has no message in flight');
  return last;
};

/** A solo agent without message history speaks first, before any step is counted (reference: initialize). */
export const isOpeningTurn = (state: EpisodeState): boolean => state.trajectory.length === 0;

/** Whose model turn the episode waits for; null when the next hop is the environment's (pending tool calls). */
export const turnRole = (state: EpisodeState): TurnRole | null => {
  const { from_role: from, to_role: to } = state;
  if ((from === 'agent' || from === 'env') && to === 'user') return 'user';
  if ((from === 'user' || from === 'env') && to === 'agent') return 'agent';
  if ((from === 'agent' || from === 'user') && to === 'env') return null;
  throw new Error(`Invalid routing: from ${from} to ${to}`);
};

/** The participant playing `role` in this episode, and the model that answers for it. */
export const participantOf = (
  state: EpisodeState,
  role: TurnRole,
  environment: Environment,
  deps: EpisodeDeps,
): { participant: Participant; model: ModelConfig } =>
  role === 'user'
    ? { participant: userOf(state, environment, deps), model: deps.userModel! }
    : { participant: agentOf(state, environment, deps), model: deps.agentModel };

/** Applies a participant's message (already accepted by `participant`) as the episode's next hop. */
export const applyMessage = (
  state: EpisodeState,
  participant: Participant,
  message: ParticipantMessage,
  environment: Environment,
  deps: EpisodeDeps,
): EpisodeState => {
  if (state.done) throw new Error('Episode is already done');
  const stop = participant.isStop(message);
  const toEnv = message.tool_calls !== null;
  let next: EpisodeState;
  if (message.role === 'user') {
    next = {
      ...state,
      trajectory: [...state.trajectory, message],
      from_role: 'user',
      to_role: toEnv ? 'env' : 'agent',
      done: stop || state.done,
      termination_reason: stop ? 'user_stop' : state.termination_reason,
    };
  } else {
    // In solo mode nobody reads a text message: one that is not a stop ends the episode as an agent error.
    const soloError = !toEnv && isSolo(state) && !stop;
    next = {
      ...state,
      trajectory: [...state.trajectory, message],
      from_role: 'agent',
      to_role: toEnv ? 'env' : 'user',
      done: stop || soloError || state.done,
      termination_reason: stop ? 'agent_stop' : soloError ? 'agent_error' : state.termination_reason,
    };
  }
  if (isOpeningTurn(state)) {
    environment.syncTools();
    return checkCommunication({ ...next, environment: environment.changes() });
  }
  return finishStep(state, next, environment, deps);
};

/**
 * The environment's hop: runs the last message's tool calls, in order (each sees the changes of those before
 * it), awaiting the tools whose work awaits, and routes the results back to the caller.
 */
export const applyToolCalls = async (state: EpisodeState, environment: Environment, deps: EpisodeDeps): Promise<EpisodeState> => {
  if (state.done) throw new Error('Episode is already done');
  const from = state.from_role;
  const calls = (lastMessage(state) as ParticipantMessage).tool_calls ?? [];
  const results: ToolMessage[] = [];
  const ledger = usageLedger();
  for (const call of calls) results.push(await environment.respond(call, ledger.meter));
  const spent = ledger.usage();
  return finishStep(
    state,
    {
      ...state,
      ...(spent.calls === 0 ? {} : { retrieval_usage: addRoleUsage(state.retrieval_usage ?? emptyRoleUsage(), spent) }),
      trajectory: [...state.trajectory, ...results],
      from_role: 'env',
      to_role: from,
      num_errors: state.num_errors + results.filter((r) => r.error).length,
    },
    environment,
    deps,
  );
};

/**
 * Advances the episode by one hop: a user turn, an agent turn, or one batch of tool calls. A host that keeps
 * the episode's environment alive between steps passes it; otherwise it is rebuilt from the state.
 */
export const step = async (
  state: EpisodeState,
  deps: EpisodeDeps,
  environment: Environment = environmentOf(state, deps),
): Promise<EpisodeState> => {
  if (state.done) throw new Error('Episode is already done');
  const role = turnRole(state);
  if (role === null) return applyToolCalls(state, environment, deps);
  const { participant, model } = participantOf(state, role, environment, deps);
  const message = await respond(participant, model, state.trajectory, state.seed);
  return applyMessage(state, participant, message, environment, deps);
};

const finishStep = (previous: EpisodeState, next: EpisodeState, environment: Environment, deps: EpisodeDeps): EpisodeState => {
  environment.syncTools();
  const checked = checkCommunication(next);
  return checkTermination({ ...checked, step_count: previous.step_count + 1, environment: environment.changes() }, deps);
};

/** Limits override a stop produced in the same step; nothing ends while tool calls are pending. */
const checkTermination = (state: EpisodeState, deps: EpisodeDeps): EpisodeState => {
  if (state.to_role === 'env') return state;
  let { done, termination_reason: reason } = state;
  if (state.step_count >= state.max_steps) [done, reason] = [true, 'max_steps'];
  if (state.num_errors >= state.max_errors) [done, reason] = [true, 'too_many_errors'];
  if (state.timeout_seconds !== null && deps.clock.nowMs() - state.started_at_ms >= state.timeout_seconds * 1000) {
    [done, reason] = [true, 'timeout'];
  }
  return { ...state, done, termination_reason: reason };
};
