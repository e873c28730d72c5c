// A2A 1.0 over JSON-RPC (the protocol's JSON binding of its proto messages, camelCase fields, enum names as
// strings): the requests tau2-edge answers as an A2A agent and the shapes it sends and reads as an A2A client.
import { z } from 'zod';
import { plainText } from '../core/schemas/run-config.ts';

export const A2A_PROTOCOL_VERSION = '1.0';
export const A2A_VERSION_HEADER = 'A2A-Version';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
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

export const TaskStateSchema = z.enum([
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
]);
export type TaskState = z.infer<typeof TaskStateSchema>;

const MAX_PARTS = 64;
const MAX_TEXT = 1_000_000;
const metadata = z.record(z.string(), z.unknown());

/** One part of a message or artifact: exactly one of text, data, url or raw, with its media type. */
export const PartSchema = z.object({
  text: z.string().max(MAX_TEXT).optional(),
  data: z.unknown().optional(),
  url: z.string().max(2048).optional(),
  raw: z.string().optional(),
  mediaType: z.string().max(256).optional(),
  filename: z.string().max(256).optional(),
  metadata: metadata.optional(),
});
export type Part = z.infer<typeof PartSchema>;

export const RoleSchema = z.enum(['ROLE_USER', 'ROLE_AGENT']);

export const MessageSchema = z.object({
  messageId: plainText().min(1),
  role: RoleSchema,
  parts: z.array(PartSchema).max(MAX_PARTS),
  contextId: plainText().optional(),
  taskId: plainText().optional(),
  referenceTaskIds: z.array(plainText()).max(MAX_PARTS).optional(),
  extensions: z.array(z.string().max(2048)).max(MAX_PARTS).optional(),
  metadata: metadata.optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const TaskStatusSchema = z.object({ state: TaskStateSchema, message: MessageSchema.optional(), timestamp: z.string().optional() });

export const ArtifactSchema = z.object({
  artifactId: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  parts: z.array(PartSchema),
  metadata: metadata.optional(),
});

export const TaskSchema = z.object({
  id: z.string(),
  contextId: z.string(),
  status: TaskStatusSchema,
  artifacts: z.array(ArtifactSchema).optional(),
  history: z.array(MessageSchema).optional(),
  metadata: metadata.optional(),
});
export type Task = z.infer<typeof TaskSchema>;

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
  metadata: metadata.optional(),
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
