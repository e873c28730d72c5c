// One orchestrator transition of the half-duplex protocol (reference: Orchestrator.step and
// _check_termination). The state is a plain value: callers persist it between steps.
import type { EpisodeState } from '../schemas/episode.ts';
import type { Message, ParticipantMessage, ToolMessage } from '../schemas/message.ts';
import { agentOf, environmentOf, isSolo, userOf } from './deps.ts';
import type { EpisodeDeps } from './deps.ts';
import { checkCommunication } from './communication.ts';

const lastMessage = (state: EpisodeState): Message => {
  const last = state.trajectory[state.trajectory.length - 1];
  if (!last) throw new Error('Episode has no message in flight');
  return last;
};

/** Advances the episode by one hop: a user turn, an agent turn, or one batch of tool calls. */
export const step = async (state: EpisodeState, deps: EpisodeDeps): Promise<EpisodeState> => {
  if (state.done) throw new Error('Episode is already done');
  const environment = environmentOf(state, deps);
  const { from_role: from, to_role: to } = state;
  let next: EpisodeState;

  if ((from === 'agent' || from === 'env') && to === 'user') {
    const user = userOf(state, environment, deps);
    const message = await user.respond(state.trajectory, state.seed);
    const stop = user.isStop(message);
    next = {
      ...state,
      trajectory: [...state.trajectory, message],
      from_role: 'user',
      to_role: message.tool_calls !== null ? 'env' : 'agent',
      done: stop || state.done,
      termination_reason: stop ? 'user_stop' : state.termination_reason,
    };
  } else if ((from === 'user' || from === 'env') && to === 'agent') {
    const agent = agentOf(state, environment, deps);
    const message = await agent.respond(state.trajectory, state.seed);
    const stop = agent.isStop(message);
    const toEnv = message.tool_calls !== null;
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
  } else if ((from === 'agent' || from === 'user') && to === 'env') {
    const calls = (lastMessage(state) as ParticipantMessage).tool_calls ?? [];
    const results: ToolMessage[] = calls.map((call) => environment.getResponse(call));
    next = {
      ...state,
      trajectory: [...state.trajectory, ...results],
      from_role: 'env',
      to_role: from,
      num_errors: state.num_errors + results.filter((r) => r.error).length,
    };
  } else {
    throw new Error(`Invalid routing: from ${from} to ${to}`);
  }

  environment.syncTools();
  const checked = checkCommunication(next);
  return checkTermination({ ...checked, step_count: state.step_count + 1, environment: environment.changes() }, deps);
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
