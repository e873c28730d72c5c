// The MCP server of one episode of the Worker where the caller plays the agent: the shared MCP server over the
// episode service. Stateless: every message is answered from the episode itself, so any Worker answers any
// message and no MCP session is kept.
import { answerMcp as answerEpisodeMcp } from '../../core/mcp/server.ts';
import type { McpEpisode, McpRequest } from '../../core/mcp/server.ts';
import type { JsonRpcResponse } from '../../core/mcp/json-rpc.ts';
import type { EpisodeHandle } from '../episode/handle.ts';
import { isRefused } from '../episode/refusals.ts';
import { callEpisodeTool, episodeTools } from './episode-tools.ts';
import { refusalRpcError } from './json-rpc.ts';

/** The turn the episode waits for now (0 once it is over: the step then answers why it is refused). */
const pendingStep = async (env: Env, episode: EpisodeHandle): Promise<number> =>
  (await env.EPISODE.getByName(episode.key).observe(Number.MAX_SAFE_INTEGER, false))?.step ?? 0;

const served = (env: Env, episode: EpisodeHandle, options: { withUser: boolean }): McpEpisode => ({
  list: async () => {
    const listed = await episodeTools(env, episode, options);
    return isRefused(listed) ? { error: refusalRpcError(listed) } : { value: listed };
  },
  call: async (call, step) => {
    const called = await callEpisodeTool(env, episode, step ?? (await pendingStep(env, episode)), call, options);
    return isRefused(called) ? { error: refusalRpcError(called) } : { value: called.result };
  },
});

/** Answers one request to the episode's MCP server. `withUser`: the user is spoken to with send_message_to_user. */
export const answerMcp = (env: Env, episode: EpisodeHandle, request: McpRequest, options: { withUser: boolean }): Promise<JsonRpcResponse> =>
  answerEpisodeMcp(served(env, episode, options), request);
