// What the A2A client reads from an agent, in both protocol versions it speaks: the card (1.0's supportedInterfaces,
// 0.3's url and preferredTransport) and a SendMessage/GetTask answer (1.0's JSON binding; 0.3's `kind`-tagged
// objects with lower-case states), each brought to one shape: the reply's text and, for a task, its state.
import { z } from 'zod';
import { MessageSchema, TaskSchema } from '../schemas/a2a.ts';
import type { Part, Task } from '../schemas/a2a.ts';

export type ProtocolVersion = '1.0' | '0.3';

/** The agent's JSON-RPC endpoint and the protocol version it speaks there. */
export interface AgentInterface {
  readonly url: string;
  readonly version: ProtocolVersion;
}

const CardV1Schema = z.object({
  supportedInterfaces: z.array(z.object({ url: z.string(), protocolBinding: z.string(), protocolVersion: z.string() })).min(1),
});
const CardV03Schema = z.object({
  url: z.string(),
  protocolVersion: z.string().regex(/^0\.3(\.|$)/, 'A 0.3 card says protocolVersion 0.3'),
  preferredTransport: z.string().optional(),
  additionalInterfaces: z.array(z.object({ url: z.string(), transport: z.string() })).optional(),
});

/** The JSON-RPC interface a card offers, or why it offers none this client can use. */
export const cardInterface = (card: unknown): AgentInterface | string => {
  const v1 = CardV1Schema.safeParse(card);
  if (v1.success) {
    const rpc = v1.data.supportedInterfaces.filter((i) => i.protocolBinding === 'JSONRPC');
    const chosen = rpc.find((i) => i.protocolVersion.startsWith('1.')) ?? rpc.find((i) => i.protocolVersion.startsWith('0.3'));
    if (!chosen) return `supportedInterfaces has no JSONRPC interface of protocol 1.x or 0.3 (found ${v1.data.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`).join(', ')})`;
    return { url: chosen.url, version: chosen.protocolVersion.startsWith('1.') ? '1.0' : '0.3' };
  }
  const v03 = CardV03Schema.safeParse(card);
  if (v03.success) {
    const { url, preferredTransport, additionalInterfaces } = v03.data;
    if ((preferredTransport ?? 'JSONRPC') === 'JSONRPC') return { url, version: '0.3' };
    const rpc = additionalInterfaces?.find((i) => i.transport === 'JSONRPC');
    return rpc ? { url: rpc.url, version: '0.3' } : `the card offers no JSONRPC transport (preferredTransport ${preferredTransport})`;
  }
  return 'it has neither supportedInterfaces (A2A 1.0) nor url and protocolVersion 0.3 (A2A 0.3)';
};

/** Where an exchange stands: a task still running, one that needs the next message, or one that ended. */
export type ReplyState = 'working' | 'input_required' | 'completed' | 'failed' | 'canceled' | 'rejected' | 'auth_required';

export interface Reply {
  readonly contextId: string | null;
  /** The task to follow, or null for a message reply. */
  readonly taskId: string | null;
  readonly state: ReplyState;
  /** The text parts the agent answered with, in order. */
  readonly text: string;
}

const V1_STATES: Readonly<Record<Task['status']['state'], ReplyState>> = {
  TASK_STATE_SUBMITTED: 'working',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_INPUT_REQUIRED: 'input_required',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth_required',
};

const textOf = (parts: readonly { text?: string | undefined }[]): string =>
  parts
    .map((p) => p.text)
    .filter((t): t is string => typeof t === 'string')
    .join('\n');

/** A task's words: its status message, else its artifacts' text parts. */
const taskText = (status: { message?: { parts: readonly Part[] } | undefined }, artifacts: readonly { parts: readonly Part[] }[] | undefined): string =>
  textOf(status.message?.parts ?? []) || textOf((artifacts ?? []).flatMap((a) => a.parts));

const V1ResultSchema = z.union([z.object({ message: MessageSchema }), z.object({ task: TaskSchema })]);

const fromV1Task = (task: Task): Reply => ({ contextId: task.contextId, taskId: task.id, state: V1_STATES[task.status.state], text: taskText(task.status, task.artifacts) });

const V03PartSchema = z.object({ kind: z.string(), text: z.string().optional() });
const V03MessageSchema = z.object({ kind: z.literal('message'), messageId: z.string(), contextId: z.string().optional(), parts: z.array(V03PartSchema) });
const V03TaskSchema = z.object({
  kind: z.literal('task'),
  id: z.string(),
  contextId: z.string(),
  status: z.object({ state: z.enum(['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown']), message: z.object({ parts: z.array(V03PartSchema) }).optional() }),
  artifacts: z.array(z.object({ parts: z.array(V03PartSchema) })).optional(),
});
const V03_STATES: Readonly<Record<z.infer<typeof V03TaskSchema>['status']['state'], ReplyState>> = {
  submitted: 'working',
  working: 'working',
  'input-required': 'input_required',
  completed: 'completed',
  canceled: 'canceled',
  failed: 'failed',
  rejected: 'rejected',
  'auth-required': 'auth_required',
  unknown: 'failed',
};

const fromV03Task = (task: z.infer<typeof V03TaskSchema>): Reply => ({
  contextId: task.contextId,
  taskId: task.id,
  state: V03_STATES[task.status.state],
  text: taskText(task.status as { message?: { parts: Part[] } }, task.artifacts as { parts: Part[] }[] | undefined),
});

const issuesOf = (error: z.ZodError): string => error.issues.map((i) => `${i.path.join('.') || '(result)'}: ${i.message}`).join('; ');

/** A SendMessage (message/send) result as a reply, or why it breaks the protocol. */
export const sendResult = (version: ProtocolVersion, result: unknown): Reply | string => {
  if (version === '1.0') {
    const parsed = V1ResultSchema.safeParse(result);
    if (!parsed.success) return `a SendMessage result is {message} or {task}: ${issuesOf(parsed.error)}`;
    if ('task' in parsed.data) return fromV1Task(parsed.data.task);
    const { message } = parsed.data;
    return { contextId: message.contextId ?? null, taskId: null, state: 'completed', text: textOf(message.parts) };
  }
  const parsed = z.union([V03MessageSchema, V03TaskSchema]).safeParse(result);
  if (!parsed.success) return `a message/send result is a Message or a Task (kind): ${issuesOf(parsed.error)}`;
  if (parsed.data.kind === 'task') return fromV03Task(parsed.data);
  return { contextId: parsed.data.contextId ?? null, taskId: null, state: 'completed', text: textOf(parsed.data.parts) };
};

/** A GetTask (tasks/get) result as a reply, or why it breaks the protocol. */
export const taskResult = (version: ProtocolVersion, result: unknown): Reply | string => {
  const parsed = version === '1.0' ? TaskSchema.safeParse(result) : V03TaskSchema.safeParse(result);
  if (!parsed.success) return `a task was expected: ${issuesOf(parsed.error)}`;
  return version === '1.0' ? fromV1Task(parsed.data as Task) : fromV03Task(parsed.data as z.infer<typeof V03TaskSchema>);
};
