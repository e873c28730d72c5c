// JSON-RPC 2.0 as an MCP server answers it, whatever carries the messages (the Worker's episode endpoint and
// OpenEnv's session messages, or the CLI's in-process episode endpoint).

/** The error codes of JSON-RPC 2.0 (and its implementation-defined server error). */
export const JSON_RPC_ERRORS = { INVALID_REQUEST: -32600, METHOD_NOT_FOUND: -32601, INVALID_PARAMS: -32602, INTERNAL_ERROR: -32603, SERVER_ERROR: -32000 } as const;

export type JsonRpcId = string | number | null;

/** A JSON-RPC 2.0 response: `jsonrpc` and `id` always, and exactly one of `result` and `error`. */
export type JsonRpcResponse =
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly result: unknown }
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly error: JsonRpcError };

export interface JsonRpcError {
  readonly code: number;
  readonly message: string;
  readonly data: unknown;
}

export const success = (id: JsonRpcId, result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id, result });
export const failure = (id: JsonRpcId, code: number, message: string, data: unknown = null): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: { code, message, data } });
