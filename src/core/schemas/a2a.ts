// The A2A protocol's data model (version 1.0, as its JSON binding writes it: camelCase fields, enum names as
// strings): messages and their parts, tasks and their states. tau2-edge answers with these as an A2A agent and
// reads them back from the agents it evaluates.
import { z } from 'zod';
import { plainText } from './run-config.ts';

export const A2A_PROTOCOL_VERSION = '1.0';
export const A2A_VERSION_HEADER = 'A2A-Version';
/** Where an agent serves its card, under its URL. */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

export const MAX_PARTS = 64;
const MAX_TEXT = 1_000_000;
const metadata = z.record(z.string(), z.unknown());

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

