// A2A 1.0 over JSON-RPC (the protocol's JSON binding of its proto messages, camelCase fields, enum names as
// strings): the requests tau2-edge answers as an A2A agent and the shapes it sends and reads as an A2A client.
import { z } from 'zod';
import { plainText } from '../core/schemas/run-config.ts';
import { MAX_PARTS, MessageSchema, TaskSchema } from '../core/schemas/a2a.ts';

export * from '../core/schemas/a2a.ts';

/** The JSON-RPC endpoint of tau2-edge as an A2A agent. */
export const A2A_RPC_PATH = '/v1/a2a';

/** The error codes of A2A's JSON-RPC binding. */
export const A2A_ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  unsupportedOperation: -32004,
  versionNotSupported: -32009,
} as const;

/** A JSON-RPC 2.0 request: an id (string, integer or null), a method name and its params object. */
export const JsonRpcRequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string().max(256), z.number().int(), z.null()]).default(null),
  method: z.string().min(1).max(128),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type JsonRpcRequest = z.infer<typeof JsonRpcRequestSchema>;

export const SendMessageParamsSchema = z.object({
  message: MessageSchema,
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string().max(256)).max(MAX_PARTS).optional(),
      historyLength: z.number().int().nonnegative().optional(),
      returnImmediately: z.boolean().optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  tenant: z.string().max(256).optional(),
});

export const TaskIdParamsSchema = z.object({ id: plainText().min(1), historyLength: z.number().int().nonnegative().optional(), tenant: z.string().max(256).optional() });

/** What SendMessage answers: a task, or a message. */
export const SendMessageResultSchema = z.union([z.object({ task: TaskSchema }), z.object({ message: MessageSchema })]);

/** A JSON-RPC 2.0 answer: the method's result (SendMessageResultSchema, or a TaskSchema), or an error with its A2A code. */
export const JsonRpcResponseSchema = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number(), z.null()]), result: z.union([SendMessageResultSchema, TaskSchema]) }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number(), z.null()]),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
  }),
]);
