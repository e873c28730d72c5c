// An episode's MCP endpoint (POST /v1/episodes/:id/mcp, MCP's Streamable HTTP transport): one JSON-RPC 2.0
// message per POST, a request (with an id, answered) or a notification (without, accepted with 202).
import { z } from 'zod';

export { PROTOCOL_VERSIONS } from '../core/mcp/server.ts';

/** Bytes of a method name (MCP's are short: `tools/call`, `notifications/initialized`). */
const MAX_METHOD = 256;

export const McpMessageSchema = z.object({
  jsonrpc: z.literal('2.0'),
  /** Absent for a notification. */
  id: z.union([z.string().max(MAX_METHOD), z.int()]).optional(),
  method: z.string().min(1).max(MAX_METHOD),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type McpMessage = z.infer<typeof McpMessageSchema>;

/** A JSON-RPC 2.0 response: the request's id, and exactly one of `result` and `error`. */
export const McpResponseSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.int()]).nullable(), result: z.record(z.string(), z.unknown()) }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.int()]).nullable(),
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
  }),
]);
