// An episode's tools over MCP, whatever carries the JSON-RPC (OpenEnv's session messages, the episode's own
// Streamable HTTP endpoint): the caller's tools as MCP tools, and a tools/call played as one step of the episode
// through the episode service (openenv/actions.ts builds the step's message), answered as MCP's CallToolResult.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { episodeIdOf } from '../episode/launch.ts';
import { toolsOf } from '../episode/service.ts';
import type { EpisodeHandle } from '../episode/handle.ts';
import { isRefused } from '../episode/refusals.ts';
import type { Refusal } from '../episode/refusals.ts';
import { parseAction, resultOf, stepWith, toolAnswer } from '../openenv/actions.ts';
import { SEND_MESSAGE_TOOL, sendMessageTool, toolSpecOf } from '../../core/mcp/server.ts';
import type { PlayingAction } from '../openenv/actions.ts';

/** The caller's tools as an MCP server lists them (the reference's names, descriptions and JSON schemas). */
export const episodeTools = async (env: Env, episode: EpisodeHandle, options: { withUser: boolean }): Promise<{ kind: 'tools'; step: number; done: boolean; tools: Tool[]; policy?: string } | Refusal> => {
  const listed = await toolsOf(env, episode);
  if (isRefused(listed)) return listed;
  const tools = listed.tools.map((t) => toolSpecOf(t, 'inputSchema') as Tool);
  return { ...listed, tools: options.withUser ? [...tools, sendMessageTool] : tools };
};

/** Where the episode stands after a call: the step the next call answers, done, and once done the grade. */
const metaOf = (episode: EpisodeHandle, answer: Parameters<typeof resultOf>[1]) => {
  const { observation, reward, done } = resultOf(episodeIdOf(episode.key), answer);
  return {
    episode_id: observation.episode_id,
    step: answer.step,
    done,
    reward,
    termination_reason: observation.termination_reason,
    ...(observation.reward_info === undefined ? {} : { reward_info: observation.reward_info }),
  };
};

/** The text of the other side's messages in a step's answer (the user's reply to the agent's message). */
const replyText = (messages: readonly Record<string, unknown>[]): string =>
  messages
    .filter((m) => m.role === 'user' && typeof m.content === 'string')
    .map((m) => m.content as string)
    .join('\n');

/** The action a tools/call plays: a message to the user, or one call of a domain tool. */
const actionOf = (name: unknown, args: unknown, withUser: boolean) => {
  if (withUser && name === SEND_MESSAGE_TOOL) {
    const message = (args as { message?: unknown } | null)?.message;
    if (typeof message !== 'string') return { kind: 'invalid', issues: [{ path: 'arguments.message', message: 'Expected a string' }] } satisfies Refusal;
    return parseAction({ message: { role: 'assistant', content: message } });
  }
  return parseAction({ type: 'call_tool', tool_name: name, arguments: args });
};

/**
 * Plays one tools/call at turn `step` and answers MCP's CallToolResult: the tool message's text (for
 * send_message_to_user, the user's reply), whether the episode recorded the call as failed, and in `_meta` where
 * the episode stands (the step the next call answers, done, and once done its reward, termination reason and reward info).
 */
export const callEpisodeTool = async (
  env: Env,
  episode: EpisodeHandle,
  step: number,
  call: { name: unknown; arguments: unknown },
  options: { withUser: boolean },
): Promise<{ kind: 'called'; step: number; done: boolean; result: CallToolResult } | Refusal> => {
  const action = actionOf(call.name, call.arguments, options.withUser);
  if (isRefused(action)) return action;
  const played = await stepWith(env, episode, step, action.value as PlayingAction);
  if (isRefused(played)) return played;
  const { stepped, call_id } = played;
  const { answer } = stepped;
  const _meta = metaOf(episode, answer);
  if (!('tool_name' in action.value)) {
    return { kind: 'called', step: answer.step, done: answer.done, result: { content: [{ type: 'text', text: replyText(answer.observation.messages) }], isError: false, _meta } };
  }
  const tool = toolAnswer(stepped, call_id);
  const result: CallToolResult = { content: tool === null ? [] : [{ type: 'text', text: tool.text ?? '' }], isError: tool?.failed ?? false, _meta };
  return { kind: 'called', step: answer.step, done: answer.done, result };
};
