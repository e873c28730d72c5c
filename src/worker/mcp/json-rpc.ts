// The episode service's refusals as JSON-RPC errors of an MCP server (shared by OpenEnv's MCP messages and the
// episode's Streamable HTTP endpoint).
import { JSON_RPC_ERRORS, failure } from '../../core/mcp/json-rpc.ts';
import type { JsonRpcError, JsonRpcId, JsonRpcResponse } from '../../core/mcp/json-rpc.ts';
import type { Refusal } from '../episode/refusals.ts';
import { refusalData } from '../openenv/refusals.ts';

/** A refused tools/list or tools/call: bad arguments are invalid params; a refused step a server error naming the step API's status. */
export const refusalRpcError = (refusal: Refusal): JsonRpcError => {
  const { message, ...data } = refusalData(refusal);
  return { code: refusal.kind === 'invalid' ? JSON_RPC_ERRORS.INVALID_PARAMS : JSON_RPC_ERRORS.SERVER_ERROR, message, data };
};

export const refusalError = (id: JsonRpcId, refusal: Refusal): JsonRpcResponse => {
  const { code, message, data } = refusalRpcError(refusal);
  return failure(id, code, message, data);
};
