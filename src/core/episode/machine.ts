// The episode's step machine as the Durable Object drives it, without any Workers API (so it also runs in a
// benchmark): start, the request of the turn waited for, and applying a participant's answer — each followed
// by the environment's hops (tool calls) up to the next participant turn or the end.
import { dumpsPy } from '../py/index.ts';
import type { PyInput } from '../py/index.ts';
import { prepareEpisode } from '../orchestrator/initialize.ts';
import { applyMessage, applyToolCalls, participantOf, turnRole } from '../orchestrator/step.ts';
import type { TurnRole } from '../orchestrator/step.ts';
import { baseSlots } from '../environment/environment.ts';
import type { EpisodeDeps } from '../orchestrator/deps.ts';
import type { EpisodeSpec } from '../orchestrator/initialize.ts';
import type { Message, ParticipantMessage, ToolMessage } from '../schemas/message.ts';
import type { TurnRequest } from '../agents/participant.ts';
import { agentChatMessages, userChatMessages } from '../agents/history.ts';
import { toWireMessage } from '../llm/ai-sdk-client.ts';
import type { Environment } from '../environment/environment.ts';
import type { EpisodeState } from '../schemas/episode.ts';
import { turnResponse } from './turn.ts';
import type { LocalTurn, PendingTurn, TurnResponse } from './turn.ts';

/** An episode being played: its state, its environment, and the participant turn it waits for (null: none). */
export interface LiveEpisode {
  state: EpisodeState;
  readonly environment: Environment;
  /** The DBs as last persisted, to store the next step's changes against. */
  persistedSlots: readonly unknown[];
  pending: TurnRole | null;
}

/**
 * Runs the environment's hops up to the next participant turn or the end, and notes whose turn it is. While a
 * hop awaits (a tool that calls a model or an endpoint), no turn is waited for.
 */
const advance = async (live: LiveEpisode, deps: EpisodeDeps): Promise<LiveEpisode> => {
  live.pending = null;
  while (!live.state.done && turnRole(live.state) === null) live.state = await applyToolCalls(live.state, live.environment, deps);
  live.pending = live.state.done ? null : turnRole(live.state);
  return live;
};

export const startEpisode = (spec: EpisodeSpec, deps: EpisodeDeps): Promise<LiveEpisode> => {
  const prepared = prepareEpisode(spec, deps);
  return advance({ ...prepared, persistedSlots: baseSlots(deps.data), pending: null }, deps);
};

/** The model and the chat-completions request of the turn waited for. */
export const turnCall = (live: LiveEpisode, deps: EpisodeDeps): { model: string; request: TurnRequest } => {
  if (live.pending === null) throw new Error('No turn is waited for');
  const { participant, model } = participantOf(live.state, live.pending, live.environment, deps);
  return { model: model.model, request: participant.request(live.state.trajectory, live.state.seed) };
};

/** A request as Python-JSON text (see PendingTurn.request). */
export const requestText = (request: TurnRequest): string =>
  dumpsPy({ messages: request.messages, tools: request.tools, tool_choice: request.toolChoice, llm_args: request.llmArgs } as unknown as PyInput);

/** A turn as it crosses RPC: its request as text (PyFloats and the like do not cross as values). */
export const asPendingTurn = (turn: LocalTurn): PendingTurn => ({ ...turn, request: requestText(turn.request) });

/**
 * What a participant sees of `messages`, in the reference's wire format (OpenAI chat-completions messages): the
 * agent's view, or the user simulator's (roles flipped: the agent speaks as `user`, the user as `assistant`).
 */
export const participantObservation = (role: TurnRole, messages: readonly Message[]): Record<string, unknown>[] =>
  (role === 'agent' ? agentChatMessages('', messages) : userChatMessages('', messages)).slice(1).map(toWireMessage);

/** The ids of the participant's tool calls in `messages` whose tool message records a failure (which wire messages do not carry). */
export const failedToolCalls = (role: TurnRole, messages: readonly Message[]): string[] =>
  messages.filter((m): m is ToolMessage => m.role === 'tool' && m.error && m.requestor === (role === 'agent' ? 'assistant' : 'user')).map((m) => m.id);

/** The message an answer makes for the turn waited for; throws when it is not a valid one. Changes nothing. */
export const acceptTurn = (live: LiveEpisode, result: TurnResponse, deps: EpisodeDeps): ParticipantMessage => {
  if (live.pending === null) throw new Error('No turn is waited for');
  return participantOf(live.state, live.pending, live.environment, deps).participant.accept(turnResponse(result));
};

/** Applies the answer to the turn waited for; throws (a failed attempt) when it is not a valid message. */
export const applyTurn = (live: LiveEpisode, result: TurnResponse, deps: EpisodeDeps): Promise<LiveEpisode> => {
  if (live.pending === null) throw new Error('No turn is waited for');
  const { participant } = participantOf(live.state, live.pending, live.environment, deps);
  return applyParticipantMessage(live, participant.accept(turnResponse(result)), deps);
};

/**
 * Applies a participant message already made (a recorded one, replayed) as the turn waited for, then the
 * environment's hops up to the next participant turn or the end.
 */
export const applyParticipantMessage = (live: LiveEpisode, message: ParticipantMessage, deps: EpisodeDeps): Promise<LiveEpisode> => {
  if (live.pending === null) throw new Error('No turn is waited for');
  const { participant } = participantOf(live.state, live.pending, live.environment, deps);
  live.state = applyMessage(live.state, participant, message, live.environment, deps);
  return advance(live, deps);
};

/** Ends the episode because the turn waited for never came: never a success (the evaluator scores it 0). */
export const expireTurn = (live: LiveEpisode): LiveEpisode => {
  live.state = { ...live.state, done: true, termination_reason: 'timeout' };
  live.pending = null;
  return live;
};
