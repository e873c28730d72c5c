// What OpenEnv's resets and actions do to an episode, whatever carries them (a WebSocket session, the stateless
// POST /openenv/reset and /step, a session's MCP tools/call): the episode service the step API also calls
// (episode/service.ts), so an episode behaves the same on every transport. Each answers what was done or the
// service's refusal (a bad action is one too), which the carrier maps to its wire.
import { z } from 'zod';
import { EpisodeCreateSchema, EpisodeStepRequestSchema } from '../../api/index.ts';
import type { EpisodeCreated, EpisodeStep, EpisodeStepRequest } from '../../api/index.ts';
import { OpenEnvActionSchema, OpenEnvForkResetSchema, OpenEnvJoinSchema, OpenEnvToolActionSchemas } from '../../api/openenv.ts';
import type { OpenEnvAction, OpenEnvObservation, OpenEnvWireResult } from '../../api/openenv.ts';
import { isPyFloat } from '../../core/py/index.ts';
import type { PyFloat, PyValue } from '../../core/py/index.ts';
import { playedMessage, toolCallMessage } from '../../core/gym-action.ts';
import { zodIssues } from '../../core/schemas/issues.ts';
import { episodeIdOf } from '../episode/launch.ts';
import { createEpisode, joinEpisode, openingOf, stepEpisode, toolsOf } from '../episode/service.ts';
import { openForks } from '../episode/fork.ts';
import type { Opened, Stepped } from '../episode/service.ts';
import type { EpisodeHandle } from '../episode/handle.ts';
import { isRefused } from '../episode/refusals.ts';
import type { Refusal } from '../episode/refusals.ts';
import { toolSpecOf } from '../../core/mcp/server.ts';

/** The reward of a graded episode (a Python float in the reward info, kept one on the wire). */
const rewardOf = (rewardInfo: Record<string, unknown> | null | undefined): number | PyFloat | null => {
  const reward = rewardInfo?.reward;
  return typeof reward === 'number' || isPyFloat(reward) ? reward : null;
};

export const resultOf = (episodeId: string, answer: EpisodeCreated | EpisodeStep): OpenEnvWireResult => {
  const rewardInfo = 'reward_info' in answer ? answer.reward_info : undefined;
  const observation: OpenEnvObservation = {
    episode_id: episodeId,
    step: answer.step,
    ...answer.observation,
    termination_reason: 'termination_reason' in answer ? answer.termination_reason : null,
    ...(rewardInfo === undefined ? {} : { reward_info: rewardInfo }),
  };
  return { observation, reward: answer.done ? rewardOf(rewardInfo) : null, done: answer.done };
};

const parseWith = <S extends z.ZodType>(schema: S, value: unknown): { kind: 'parsed'; value: z.infer<S> } | Refusal => {
  const parsed = schema.safeParse(value);
  return parsed.success ? { kind: 'parsed', value: parsed.data as z.infer<S> } : { kind: 'invalid', issues: zodIssues(parsed.error) };
};

/** Starts the episode a reset asks for, forks the one it names in `fork_of`, or joins the one it names. */
export const resetEpisode = async (env: Env, tenant: string, data: Record<string, unknown>): Promise<Opened | Refusal> => {
  if ('episode_id' in data) {
    const join = parseWith(OpenEnvJoinSchema, data);
    return isRefused(join) ? join : joinEpisode(env, tenant, join.value.episode_id);
  }
  if ('fork_of' in data) {
    const fork = parseWith(OpenEnvForkResetSchema, data);
    if (isRefused(fork)) return fork;
    const { fork_of: origin, ...changes } = fork.value;
    const forks = await openForks(env, tenant, origin, { ...changes, at_step: origin.at_step, n: 1 });
    return isRefused(forks) ? forks : openingOf(env, forks.episodes[0]!);
  }
  const created = parseWith(EpisodeCreateSchema, data);
  return isRefused(created) ? created : createEpisode(env, tenant, created.value);
};

/** An action that plays a message (every action but list_tools). */
export type PlayingAction = Exclude<OpenEnvAction, { type: 'list_tools' }>;

/** A call_tool's message, built from its name and arguments, is held to a message's bounds. */
const PlayedMessageSchema = z.object({ message: EpisodeStepRequestSchema.shape.message });

/** The message an action plays at turn `n`. */
const messageOf = (action: PlayingAction, n: number): { kind: 'parsed'; value: EpisodeStepRequest['message'] } | Refusal => {
  if ('message' in action) return { kind: 'parsed', value: action.message };
  if ('tool_name' in action) {
    const played = parseWith(PlayedMessageSchema, { message: toolCallMessage(action.tool_name, action.arguments as Record<string, PyValue>, n) });
    return isRefused(played) ? played : { kind: 'parsed', value: played.value.message };
  }
  try {
    return { kind: 'parsed', value: playedMessage(action.action, n) };
  } catch (failure) {
    // The reference's gym answers an action it cannot parse with this text.
    return { kind: 'invalid', issues: [{ path: 'action', message: `Invalid action with error: ${failure instanceof Error ? failure.message : String(failure)}` }] };
  }
};

/** The tool message answering the caller's tool call `id` in a step's answer: its text and whether it failed. */
export const toolAnswer = (stepped: Stepped, id: string): { text: string | null; failed: boolean } | null => {
  const message = stepped.answer.observation.messages.find((m) => m.role === 'tool' && m.tool_call_id === id);
  return message === undefined ? null : { text: typeof message.content === 'string' ? message.content : null, failed: stepped.failed_tool_calls.includes(id) };
};

/** An action as sent (step data); a bad one is a 400 naming its fields (a tool action's, by its `type`). */
export const parseAction = (data: unknown): { kind: 'parsed'; value: OpenEnvAction } | Refusal => {
  const type = (data as { type?: unknown } | null)?.type;
  const toolAction = typeof type === 'string' && Object.hasOwn(OpenEnvToolActionSchemas, type) ? OpenEnvToolActionSchemas[type as keyof typeof OpenEnvToolActionSchemas] : null;
  return parseWith<z.ZodType<OpenEnvAction>>(toolAction ?? OpenEnvActionSchema, data);
};

/** Plays an action's message at turn `step` (the action's own step when it names one); `call_id` is a call_tool's. */
export const stepWith = async (env: Env, handle: EpisodeHandle, step: number, action: PlayingAction): Promise<{ kind: 'played'; stepped: Stepped; call_id: string } | Refusal> => {
  const n = action.step ?? step;
  const message = messageOf(action, n);
  if (isRefused(message)) return message;
  const stepped = await stepEpisode(env, handle, { step: n, message: message.value });
  return isRefused(stepped) ? stepped : { kind: 'played', stepped, call_id: `call_${n}` };
};

/**
 * What an action answers and the step it played (null for list_tools, which lists the caller's tools as
 * OpenEnv's ListToolsObservation does, leaving the episode as it is). A call_tool's observation carries
 * OpenEnv's CallToolObservation fields.
 */
export const act = async (env: Env, handle: EpisodeHandle, step: number, data: unknown): Promise<{ kind: 'acted'; result: OpenEnvWireResult; stepped: EpisodeStep | null } | Refusal> => {
  const episodeId = episodeIdOf(handle.key);
  const parsed = parseAction(data);
  if (isRefused(parsed)) return parsed;
  const action = parsed.value;
  if ('type' in action && action.type === 'list_tools') {
    const listed = await toolsOf(env, handle);
    if (isRefused(listed)) return listed;
    const observation: OpenEnvObservation = { episode_id: episodeId, step: listed.step, messages: [], tools: listed.tools.map((t) => toolSpecOf(t, 'input_schema')), termination_reason: null };
    return { kind: 'acted', result: { observation, reward: null, done: listed.done }, stepped: null };
  }
  const played = await stepWith(env, handle, step, action);
  if (isRefused(played)) return played;
  const { stepped, call_id } = played;
  const result = resultOf(episodeId, stepped.answer);
  if ('tool_name' in action) {
    // ToolError is for a call that could not be made; a tool's own failure is its result, as tau2 records it.
    result.observation = { ...result.observation, tool_name: action.tool_name, result: toolAnswer(stepped, call_id)?.text ?? null, error: null };
  }
  return { kind: 'acted', result, stepped: stepped.answer };
};
