// tau2-edge's A2A JSON-RPC endpoint: SendMessage with an evaluation request starts a run and answers its task;
// GetTask follows it; CancelTask stops it. The task is the run itself, so nothing is kept beside the run: a
// retried message (same messageId) finds the run it started, and another tenant's task is not found.
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../api/auth.ts';
import { RunLaunchSchema } from '../../api/index.ts';
import type { ApiIssue } from '../../api/index.ts';
import { A2A_ERROR, A2A_PROTOCOL_VERSION, A2A_VERSION_HEADER, JsonRpcRequestSchema, SendMessageParamsSchema, TaskIdParamsSchema } from '../../api/a2a.ts';
import type { JsonRpcRequest } from '../../api/a2a.ts';
import { ApiError, zodIssues } from '../api/errors.ts';
import { parseClientJson } from '../client-json.ts';
import { findRun } from '../db/runs.ts';
import { cancelRun, startRequestedRun } from '../runs/start.ts';
import { runTask } from './run-task.ts';

type RpcId = JsonRpcRequest['id'];

/** A JSON-RPC error: its A2A code, a message naming what was wrong and, for a refused request, its issues. */
class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** Methods of the protocol this agent does not offer (its card says so: no streaming, no push notifications). */
const UNSUPPORTED = new Set([
  'SendStreamingMessage',
  'SubscribeToTask',
  'ListTasks',
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
  'GetExtendedAgentCard',
]);

const listed = (issues: readonly ApiIssue[]): string => issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');

const invalidParams = (issues: readonly ApiIssue[]): RpcError => new RpcError(A2A_ERROR.invalidParams, listed(issues), { issues });

const notJsonRpc = (error: z.ZodError): RpcError => {
  const issues = zodIssues(error);
  return new RpcError(A2A_ERROR.invalidRequest, `Not a JSON-RPC 2.0 request: ${listed(issues)}`, { issues });
};

const parsed = <S extends z.ZodType>(schema: S, params: unknown, prefix: string): z.infer<S> => {
  const result = schema.safeParse(params ?? {});
  if (!result.success) throw invalidParams(zodIssues(result.error).map((i) => ({ ...i, path: i.path ? `${prefix}.${i.path}` : prefix })));
  return result.data;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A refusal of the run's launch (bad configuration, quota, reused message id) as the JSON-RPC error saying so. */
const refusal = (error: unknown): never => {
  if (!(error instanceof ApiError)) throw error;
  const code = error.status === 404 ? A2A_ERROR.taskNotFound : error.status === 409 ? A2A_ERROR.taskNotCancelable : error.status < 500 ? A2A_ERROR.invalidParams : A2A_ERROR.internal;
  throw new RpcError(code, error.message, error.body().error);
};

const requireTask = async (c: Context<AppEnv>, params: unknown) => {
  const { id } = parsed(TaskIdParamsSchema, params, 'params');
  const row = await findRun(c.env.DB, id, c.get('caller').tenant);
  if (!row) throw new RpcError(A2A_ERROR.taskNotFound, `Task ${id} not found`);
  return row;
};

const origin = (c: Context<AppEnv>): string => new URL(c.req.url).origin;

const sendMessage = async (c: Context<AppEnv>, params: unknown) => {
  const { message } = parsed(SendMessageParamsSchema, params, 'params');
  if (message.taskId !== undefined) {
    throw new RpcError(A2A_ERROR.unsupportedOperation, 'params.message.taskId: an evaluation takes no further messages; send a new message to start another');
  }
  const at = message.parts.findIndex((part) => isObject(part.data));
  if (at < 0) throw invalidParams([{ path: 'params.message.parts', message: 'Send the evaluation request (a POST /v1/runs body) as a data part' }]);
  const launch = parsed(RunLaunchSchema, message.parts[at]!.data, `params.message.parts[${at}].data`);
  const { tenant } = c.get('caller');
  const run = await startRequestedRun(c.env, launch, { tenant, origin: origin(c), idempotency: { key: `a2a:${tenant}:${message.messageId}`, shown: `messageId ${message.messageId}` } }).catch(refusal);
  return { task: await runTask(c.env, run, origin(c)) };
};

const dispatch = async (c: Context<AppEnv>, request: JsonRpcRequest): Promise<unknown> => {
  switch (request.method) {
    case 'SendMessage':
      return sendMessage(c, request.params);
    case 'GetTask':
      return runTask(c.env, await requireTask(c, request.params), origin(c));
    case 'CancelTask': {
      const row = await requireTask(c, request.params);
      await cancelRun(c.env, row).catch(refusal);
      return runTask(c.env, (await findRun(c.env.DB, row.id, row.tenantId))!, origin(c));
    }
    default:
      if (UNSUPPORTED.has(request.method)) throw new RpcError(A2A_ERROR.unsupportedOperation, `${request.method} is not supported by this agent`);
      throw new RpcError(A2A_ERROR.methodNotFound, `No method ${request.method}`);
  }
};

const answer = (c: Context<AppEnv>, id: RpcId, outcome: { result: unknown } | { error: RpcError }): Response =>
  c.json({
    jsonrpc: '2.0',
    id,
    ...('result' in outcome
      ? { result: outcome.result }
      : { error: { code: outcome.error.code, message: outcome.error.message, ...(outcome.error.data === undefined ? {} : { data: outcome.error.data }) } }),
  });

/** POST /v1/a2a: one JSON-RPC request, answered in JSON-RPC (errors included, with HTTP 200). */
export const handleRpc = async (c: Context<AppEnv>): Promise<Response> => {
  const json = parseClientJson(await c.req.text());
  if (!json.ok) return answer(c, null, { error: new RpcError(A2A_ERROR.parse, `Body is not valid JSON: ${json.issue.message}`) });
  const envelope = JsonRpcRequestSchema.safeParse(json.value);
  if (!envelope.success) {
    const id = isObject(json.value) && (typeof json.value['id'] === 'string' || typeof json.value['id'] === 'number') ? json.value['id'] : null;
    return answer(c, id, { error: notJsonRpc(envelope.error) });
  }
  const request = envelope.data;
  const version = c.req.header(A2A_VERSION_HEADER);
  if (version !== undefined && version !== '' && version !== A2A_PROTOCOL_VERSION) {
    return answer(c, request.id, { error: new RpcError(A2A_ERROR.versionNotSupported, `${A2A_VERSION_HEADER} ${version} is not supported; this agent speaks ${A2A_PROTOCOL_VERSION}`) });
  }
  try {
    return answer(c, request.id, { result: await dispatch(c, request) });
  } catch (error) {
    if (error instanceof RpcError) return answer(c, request.id, { error });
    throw error;
  }
};
