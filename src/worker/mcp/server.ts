// The MCP server of one episode where the caller plays the agent: `initialize` (the agent's policy as the server's
// instructions), `ping`, `tools/list` (the domain's tools and send_message_to_user) and `tools/call` (one step of
// the episode, at the turn it waits for). Stateless: every message is answered from the episode itself, so any
// Worker answers any message and no MCP session is kept.
import { PROTOCOL_VERSIONS } from '../../api/mcp.ts';
import type { McpMessage } from '../../api/mcp.ts';
import { JSON_RPC_ERRORS } from '../../api/openenv.ts';
import type { JsonRpcResponse } from '../../api/openenv.ts';
import type { EpisodeHandle } from '../episode/handle.ts';
import { isRefused } from '../episode/refusals.ts';
import { callEpisodeTool, episodeTools } from './episode-tools.ts';
import { failure, refusalError, success } from './json-rpc.ts';

const SERVER_INFO = { name: 'tau2-edge', title: 'tau2-edge episode', version: '0.1.0' };

/** The turn the episode waits for now (0 once it is over: the step then answers why it is refused). */
const pendingStep = async (env: Env, episode: EpisodeHandle): Promise<number> =>
  (await env.EPISODE.getByName(episode.key).observe(Number.MAX_SAFE_INTEGER, false))?.step ?? 0;

/** Answers one request to the episode's MCP server. `withUser`: the user is spoken to with send_message_to_user. */
export const answerMcp = async (env: Env, episode: EpisodeHandle, request: McpMessage & { id: string | number }, options: { withUser: boolean }): Promise<JsonRpcResponse> => {
  const { id, method } = request;
  const params = request.params ?? {};
  switch (method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      const protocolVersion = PROTOCOL_VERSIONS.find((v) => v === asked) ?? PROTOCOL_VERSIONS[0];
      const listed = await episodeTools(env, episode, options);
      const instructions = isRefused(listed) ? undefined : listed.policy;
      return success(id, { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO, ...(instructions === undefined ? {} : { instructions }) });
    }
    case 'ping':
      return success(id, {});
    case 'tools/list': {
      const listed = await episodeTools(env, episode, options);
      return isRefused(listed) ? refusalError(id, listed) : success(id, { tools: listed.tools });
    }
    case 'tools/call': {
      if (typeof params.name !== 'string' || params.name === '') return failure(id, JSON_RPC_ERRORS.INVALID_PARAMS, 'params.name: the name of the tool to call');
      // A call may name the turn it answers (`_meta.step`, as the last result's): sent again after a lost answer, it
      // is answered again rather than played twice, as a step of the step API is.
      const pinned = (params._meta as { step?: unknown } | undefined)?.step;
      if (pinned !== undefined && !(Number.isSafeInteger(pinned) && (pinned as number) >= 0)) return failure(id, JSON_RPC_ERRORS.INVALID_PARAMS, 'params._meta.step: a step number (a non-negative integer)');
      const call = { name: params.name, arguments: 'arguments' in params ? params.arguments : {} };
      const called = await callEpisodeTool(env, episode, (pinned as number | undefined) ?? (await pendingStep(env, episode)), call, options);
      return isRefused(called) ? refusalError(id, called) : success(id, called.result);
    }
    default:
      return failure(id, JSON_RPC_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method}`);
  }
};
