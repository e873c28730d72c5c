// The MCP server of one episode where the caller plays the agent, over any episode that can list its tools and
// play a call: `initialize` (the agent's policy as the server's instructions), `ping`, `tools/list` (the domain's
// tools, and send_message_to_user when there is a user) and `tools/call` (one step of the episode, at the turn it
// waits for). Stateless: every message is answered from the episode itself.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { JSON_RPC_ERRORS, failure, success } from './json-rpc.ts';
import type { JsonRpcError, JsonRpcResponse } from './json-rpc.ts';

/** The MCP revisions served (Streamable HTTP came with 2025-03-26), newest first: the newest is offered to a client asking for another. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

const SERVER_INFO = { name: 'tau2-edge', title: 'tau2-edge episode', version: '0.1.0' };

/** The tool an agent speaks to the user with: its result is the user's reply. */
export const SEND_MESSAGE_TOOL = 'send_message_to_user';

export const sendMessageTool: Tool = {
  name: SEND_MESSAGE_TOOL,
  description:
    'Send a message to the user and wait for the reply. The result is what the user answers; once the user ends the conversation the episode is done and `_meta.reward` holds its reward.',
  inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'The message to the user.' } }, required: ['message'] },
};

/** A chat-completions tool as OpenEnv's Tool (`input_schema`) or MCP's (`inputSchema`). */
export const toolSpecOf = (tool: Record<string, unknown>, schemaKey: 'input_schema' | 'inputSchema'): Record<string, unknown> => {
  const fn = (tool.function ?? {}) as { name?: unknown; description?: unknown; parameters?: unknown };
  return { name: fn.name, description: typeof fn.description === 'string' ? fn.description : '', [schemaKey]: fn.parameters ?? { type: 'object', properties: {} } };
};

/** An answer of the episode, or the JSON-RPC error it is refused with. */
export type Served<T> = { readonly value: T } | { readonly error: JsonRpcError };

/** What the server needs of the episode. */
export interface McpEpisode {
  /** The tools the agent may call, and the policy it follows. */
  list(): Promise<Served<{ readonly tools: Tool[]; readonly policy?: string | undefined }>>;
  /** Plays one call; `step` is the turn the call says it answers (`_meta.step`), if it says. */
  call(call: { readonly name: string; readonly arguments: unknown }, step: number | undefined): Promise<Served<CallToolResult>>;
}

/** A JSON-RPC request to the server (a notification is not answered). */
export interface McpRequest {
  readonly id: string | number;
  readonly method: string;
  readonly params?: Record<string, unknown> | undefined;
}

const answered = <T>(id: string | number, served: Served<T>, result: (value: T) => unknown): JsonRpcResponse =>
  'error' in served ? { jsonrpc: '2.0', id, error: served.error } : success(id, result(served.value));

/** Answers one request to the episode's MCP server. */
export const answerMcp = async (episode: McpEpisode, request: McpRequest): Promise<JsonRpcResponse> => {
  const { id, method } = request;
  const params = request.params ?? {};
  switch (method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      const protocolVersion = PROTOCOL_VERSIONS.find((v) => v === asked) ?? PROTOCOL_VERSIONS[0];
      const listed = await episode.list();
      const instructions = 'error' in listed ? undefined : listed.value.policy;
      return success(id, { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: SERVER_INFO, ...(instructions === undefined ? {} : { instructions }) });
    }
    case 'ping':
      return success(id, {});
    case 'tools/list':
      return answered(id, await episode.list(), ({ tools }) => ({ tools }));
    case 'tools/call': {
      if (typeof params.name !== 'string' || params.name === '') return failure(id, JSON_RPC_ERRORS.INVALID_PARAMS, 'params.name: the name of the tool to call');
      // A call may name the turn it answers (`_meta.step`, as the last result's): sent again after a lost answer, it
      // is answered again rather than played twice, as a step of the step API is.
      const pinned = (params._meta as { step?: unknown } | undefined)?.step;
      if (pinned !== undefined && !(Number.isSafeInteger(pinned) && (pinned as number) >= 0)) return failure(id, JSON_RPC_ERRORS.INVALID_PARAMS, 'params._meta.step: a step number (a non-negative integer)');
      const call = { name: params.name, arguments: 'arguments' in params ? params.arguments : {} };
      return answered(id, await episode.call(call, pinned as number | undefined), (result) => result);
    }
    default:
      return failure(id, JSON_RPC_ERRORS.METHOD_NOT_FOUND, `Method not found: ${method}`);
  }
};
