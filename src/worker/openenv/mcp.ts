// OpenEnv's MCP messages on a session (http_server.py, `case "mcp"` and mcp_handler): a JSON-RPC 2.0 request
// in, a JSON-RPC 2.0 response out, with OpenEnv's error codes and messages. The tools are the caller's tools in
// the session's episode; tools/call plays one call of a tool as a step does (one turn of the episode).
import { JSON_RPC_ERRORS, JsonRpcRequestSchema } from '../../api/openenv.ts';
import type { JsonRpcResponse } from '../../api/openenv.ts';
import { truthy } from '../../core/environment/python-args.ts';
import type { PyValue } from '../../core/py/index.ts';
import { zodIssues } from '../../core/schemas/issues.ts';
import { toolsOf } from '../episode/service.ts';
import { isRefused } from '../episode/refusals.ts';
import type { Refusal } from '../episode/refusals.ts';
import { refusalData } from './refusals.ts';
import { episodeIdOf } from '../episode/launch.ts';
import { parseAction, resultOf, stepWith, toolAnswer, toolSpecOf } from './actions.ts';
import type { PlayingAction } from './actions.ts';
import type { Session } from './session-state.ts';

type Id = string | number | null;

const success = (id: Id, result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id, result });
const failure = (id: Id, code: number, message: string, data: unknown = null): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: { code, message, data } });

/** A refused tools/list or tools/call: bad arguments are invalid params; a refused step a server error naming the step API's status. */
const refusedWith = (id: Id, refusal: Refusal): JsonRpcResponse => {
  const { message, ...data } = refusalData(refusal);
  return failure(id, refusal.kind === 'invalid' ? JSON_RPC_ERRORS.INVALID_PARAMS : JSON_RPC_ERRORS.SERVER_ERROR, message, data);
};

/**
 * Plays one call of tool `name` and answers MCP's CallToolResult: the tool message's text, whether the episode
 * recorded the call as failed, and in `_meta` where the episode stands (the step the next call answers, done,
 * and once done its reward, termination reason and reward info).
 */
const callTool = async (env: Env, session: Session & { episode: NonNullable<Session['episode']> }, params: Record<string, unknown>): Promise<{ session: Session; result: unknown } | Refusal> => {
  const action = parseAction({ type: 'call_tool', tool_name: params.name, arguments: 'arguments' in params ? params.arguments : {} });
  if (isRefused(action)) return action;
  const played = await stepWith(env, session.episode, session.step, action.value as PlayingAction);
  if (isRefused(played)) return played;
  const { stepped, call_id } = played;
  const { answer } = stepped;
  const { observation, reward, done } = resultOf(episodeIdOf(session.episode.key), answer);
  const tool = toolAnswer(stepped, call_id);
  const meta = { episode_id: observation.episode_id, step: answer.step, done, reward, termination_reason: observation.termination_reason, ...(observation.reward_info === undefined ? {} : { reward_info: observation.reward_info }) };
  const result = { content: tool === null ? [] : [{ type: 'text', text: tool.text ?? '' }], isError: tool?.failed ?? false, _meta: meta };
  return { session: { ...session, step: answer.step, done: answer.done }, result };
};

/** Answers one MCP message's data: OpenEnv's JsonRpcRequest, or INVALID_REQUEST with no id when it is not one. */
export const handleMcp = async (env: Env, session: Session, data: Record<string, unknown>): Promise<{ session: Session; response: JsonRpcResponse }> => {
  const unchanged = (response: JsonRpcResponse) => ({ session, response });
  const parsed = JsonRpcRequestSchema.safeParse(data);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error).map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`));
    return unchanged(failure(null, JSON_RPC_ERRORS.INVALID_REQUEST, `Invalid request: ${issues.join('; ')}`));
  }
  const { method, params, id } = parsed.data;
  switch (method) {
    case 'openenv/session/create':
      // The socket's own session: it is the one an MCP client on this socket talks to.
      return unchanged(success(id, { session_id: session.id }));
    case 'openenv/session/close': {
      const target = params.session_id;
      // OpenEnv's `if not params.get(…)`: Python's truth of the value.
      if (!truthy(target as PyValue)) return unchanged(failure(id, JSON_RPC_ERRORS.INVALID_PARAMS, "Invalid params - 'session_id' is required"));
      if (target === session.id) return unchanged(failure(id, JSON_RPC_ERRORS.INVALID_REQUEST, 'Cannot close active WebSocket-managed session via MCP method'));
      // A socket sees no session but its own.
      return unchanged(failure(id, JSON_RPC_ERRORS.INVALID_PARAMS, `Unknown session_id: ${typeof target === 'string' ? target : JSON.stringify(target)}`));
    }
    case 'tools/list':
    case 'tools/call': {
      const { episode } = session;
      // The tools are those of the reset's domain and role.
      if (episode === null) return unchanged(failure(id, JSON_RPC_ERRORS.SERVER_ERROR, 'No episode in this session: send a reset first', { status: 409, reason: 'conflict' }));
      try {
        if (method === 'tools/list') {
          const listed = await toolsOf(env, episode);
          return unchanged(isRefused(listed) ? refusedWith(id, listed) : success(id, { tools: listed.tools.map((t) => toolSpecOf(t, 'inputSchema')) }));
        }
        if (!truthy(params.name as PyValue)) return unchanged(failure(id, JSON_RPC_ERRORS.INVALID_PARAMS, "Missing 'name' in params"));
        const called = await callTool(env, { ...session, episode }, params);
        return 'kind' in called ? unchanged(refusedWith(id, called)) : { session: called.session, response: success(id, called.result) };
      } catch (thrown) {
        console.error('openenv mcp: unexpected failure', thrown);
        return unchanged(failure(id, JSON_RPC_ERRORS.INTERNAL_ERROR, 'Internal error'));
      }
    }
    default:
      return unchanged(failure(id, JSON_RPC_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method}`));
  }
};
