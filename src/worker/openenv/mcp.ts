// OpenEnv's MCP messages on a session (http_server.py, `case "mcp"` and mcp_handler): a JSON-RPC 2.0 request
// in, a JSON-RPC 2.0 response out, with OpenEnv's error codes and messages. The tools are the caller's tools in
// the session's episode; tools/call plays one call of a tool as a step does (one turn of the episode).
import { JSON_RPC_ERRORS, JsonRpcRequestSchema } from '../../api/openenv.ts';
import type { JsonRpcResponse } from '../../api/openenv.ts';
import { truthy } from '../../core/environment/python-args.ts';
import type { PyValue } from '../../core/py/index.ts';
import { zodIssues } from '../../core/schemas/issues.ts';
import { isRefused } from '../episode/refusals.ts';
import { callEpisodeTool, episodeTools } from '../mcp/episode-tools.ts';
import { failure, success } from '../../core/mcp/json-rpc.ts';
import { refusalError } from '../mcp/json-rpc.ts';
import type { Session } from './session-state.ts';

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
        // OpenEnv's tools are the domain's alone: the user is spoken to with messages, not a tool.
        if (method === 'tools/list') {
          const listed = await episodeTools(env, episode, { withUser: false });
          return unchanged(isRefused(listed) ? refusalError(id, listed) : success(id, { tools: listed.tools }));
        }
        if (!truthy(params.name as PyValue)) return unchanged(failure(id, JSON_RPC_ERRORS.INVALID_PARAMS, "Missing 'name' in params"));
        const call = { name: params.name, arguments: 'arguments' in params ? params.arguments : {} };
        const called = await callEpisodeTool(env, episode, session.step, call, { withUser: false });
        if (isRefused(called)) return unchanged(refusalError(id, called));
        return { session: { ...session, step: called.step, done: called.done }, response: success(id, called.result) };
      } catch (thrown) {
        console.error('openenv mcp: unexpected failure', thrown);
        return unchanged(failure(id, JSON_RPC_ERRORS.INTERNAL_ERROR, 'Internal error'));
      }
    }
    default:
      return unchanged(failure(id, JSON_RPC_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method}`));
  }
};
