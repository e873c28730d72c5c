// `--verbose-logs` (and `review --log-llm`): every model call written as JSON, where and as the reference writes it
// (utils/llm_utils.py _write_llm_log): <save dir>/artifacts/task_<task id>/sim_<simulation id>/llm_debug/
// <YYYYMMDD_HHMMSS_mmm>_<call name>_<call id>.json with the request (wire messages, content split into lines,
// tools, tool_choice, kwargs) and the response. `--llm-log-mode latest` keeps only the newest call of each
// name per simulation. Keys and headers in the model arguments are never written.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dumpsPy, isPyFloat, parsePyJson, pyStr } from '../../core/py/index.ts';
import type { PyValue } from '../../core/py/index.ts';
import type { LlmClient, LlmRequest, LlmResponse } from '../../core/llm/types.ts';
import { referenceBody } from '../../core/llm/ai-sdk-client.ts';
import { DEFAULT_MAX_RETRIES } from '../../core/llm/retrying-client.ts';
import type { AgentKind } from '../../core/schemas/episode.ts';
import { fileStamp, localIso } from '../local-time.ts';

export type LlmLogMode = 'all' | 'latest';

/** The simulation a model call belongs to: its task, and the id of the attempt under way. */
interface SimulationScope {
  readonly taskId: string;
  simulationId: string | null;
}

const scope = new AsyncLocalStorage<SimulationScope>();

/** Runs one simulation's work (all its attempts) with its calls logged under its task. */
export const inSimulationScope = <T>(taskId: string, run: () => Promise<T>): Promise<T> => scope.run({ taskId, simulationId: null }, run);

/** Draws a simulation id and files the scope's next calls under it. */
export const scopedNewId = (newId: () => string) => (): string => {
  const id = newId();
  const current = scope.getStore();
  if (current) current.simulationId = id;
  return id;
};

/** The reference's call names, by participant. */
export const callNames = (agent: AgentKind) => ({
  agent: agent === 'llm_agent_gt' ? 'agent_gt_response' : agent === 'llm_agent_solo' ? 'agent_solo_response' : 'agent_response',
  user: 'user_simulator_response',
  judge: 'nl_assertions_eval',
});

const SECRET_ARG = /key|token|secret|authorization|password|headers/i;

/** Multi-line contents as lists of lines, for reading (reference: _format_messages_for_logging). */
const readable = (message: Record<string, unknown>): Record<string, unknown> => {
  const content = message['content'];
  return typeof content === 'string' && content.includes('\n') ? { ...message, content: content.split('\n') } : message;
};

// As the reference writes kwargs: JSON scalars as they are, anything else as its Python str().
const primitive = (v: unknown): boolean => v === null || isPyFloat(v) || ['string', 'number', 'boolean'].includes(typeof v);

const requestData = (request: LlmRequest, at: Date): Record<string, unknown> => {
  const body = referenceBody(request);
  const kwargs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ ...request.llmArgs, num_retries: request.llmArgs['num_retries'] ?? DEFAULT_MAX_RETRIES })) {
    if (SECRET_ARG.test(key)) continue;
    kwargs[key] = primitive(value) ? value : pyStr(value as PyValue);
  }
  return {
    model: request.model,
    messages: (body['messages'] as Record<string, unknown>[]).map(readable),
    tools: body['tools'] ?? null,
    tool_choice: body['tool_choice'] ?? null,
    kwargs,
    timestamp: localIso(at),
  };
};

const toolArguments = (text: string): unknown => {
  try {
    return parsePyJson(text);
  } catch {
    return text;
  }
};

const responseData = (response: LlmResponse, at: Date): Record<string, unknown> => ({
  timestamp: localIso(at),
  content: response.content,
  tool_calls:
    response.toolCalls.length === 0
      ? null
      : response.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: toolArguments(c.arguments), requestor: 'assistant' })),
  cost: response.cost,
  usage: response.usage,
  generation_time_seconds: response.generationTimeSeconds,
});

const writeCall = async (dir: string, mode: LlmLogMode, callName: string, data: Record<string, unknown>, at: Date): Promise<void> => {
  await mkdir(dir, { recursive: true });
  if (mode === 'latest') {
    const older = (await readdir(dir)).filter((f) => f.endsWith('.json') && f.includes(`_${callName}_`));
    await Promise.all(older.map((f) => rm(path.join(dir, f), { force: true })));
  }
  const callId = randomUUID().slice(0, 8);
  const call = { call_id: callId, call_name: callName, timestamp: localIso(new Date()), ...data };
  await writeFile(path.join(dir, `${fileStamp(at)}_${callName}_${callId}.json`), dumpsPy(call as unknown as PyValue, { indent: 2 }));
};

/** A client that logs each call into the folder `dirOf` names at the time (none: not logged). */
const logging = (client: LlmClient, callName: string, mode: LlmLogMode, dirOf: () => string | null): LlmClient => ({
  async generate(request) {
    const sent = new Date();
    const response = await client.generate(request);
    const dir = dirOf();
    if (dir !== null) {
      const data = { request: requestData(request, sent), response: responseData(response, new Date()) };
      await writeCall(dir, mode, callName, data, new Date());
    }
    return response;
  },
});

/** A client that logs each call of a scoped simulation under `saveDir` (calls outside a scope are not logged). */
export const loggedClient = (client: LlmClient, callName: string, saveDir: string, mode: LlmLogMode): LlmClient =>
  logging(client, callName, mode, () => {
    const current = scope.getStore();
    return current?.simulationId ? path.join(saveDir, 'artifacts', `task_${current.taskId}`, `sim_${current.simulationId}`, 'llm_debug') : null;
  });

/** A client that logs every call into `dir` itself (`review --log-llm`: <results folder>/llm_logs). */
export const folderLoggedClient = (client: LlmClient, callName: string, dir: string): LlmClient => logging(client, callName, 'all', () => dir);
