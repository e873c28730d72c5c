// JSON-RPC 2.0 answers of an MCP server, and the episode service's refusals as JSON-RPC errors (shared by OpenEnv's
// MCP messages and the episode's Streamable HTTP endpoint).
import { JSON_RPC_ERRORS } from '../../api/openenv.ts';
import type { JsonRpcResponse } from '../../api/openenv.ts';
import type { Refusal } from '../episode/refusals.ts';
import { refusalData } from '../openenv/refusals.ts';

export type Id = string | number | null;

export const success = (id: Id, result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id, result });
export const failure = (id: Id, code: number, message: string, data: unknown = null): JsonRpcResponse => ({ jsonrpc: '2.0', id, error: { code, message, data } });

/** A refused tools/list or tools/call: bad arguments are invalid params; a refused step a server error naming the step API's status. */
export const refusalError = (id: Id, refusal: Refusal): JsonRpcResponse => {
  const { message, ...data } = refusalData(refusal);
  return failure(id, refusal.kind === 'invalid' ? JSON_RPC_ERRORS.INVALID_PARAMS : JSON_RPC_ERRORS.SERVER_ERROR, message, data);
};
