// The OpenAI-compatible adapter (Chat Completions): one call through the Vercel AI SDK's HTTP layer
// (`@ai-sdk/provider-utils`), sending the reference's exact payload (reference: llm_utils.generate); its retries are
// the shared base's (retrying-client.ts).
import { APICallError } from '@ai-sdk/provider';
import { createJsonErrorResponseHandler, generateId, postJsonToApi, withoutTrailingSlash } from '@ai-sdk/provider-utils';
import type { ResponseHandler } from '@ai-sdk/provider-utils';
import { z } from 'zod';
import { UNPARSED_ARGUMENTS_KEY } from './tool-schema.ts';
import { dumpsPy, isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { toJson } from './json-value.ts';
import type { Json } from './json-value.ts';
import { MalformedResponseError, attemptFailure, retryingClient } from './retrying-client.ts';
import type { ParsedCompletion, RetrySettings } from './retrying-client.ts';
import { withoutRedirects } from './no-redirects.ts';
import { chatCompletionsUsage } from './usage.ts';
import type { ChatMessage, ChatToolCall, LlmClient, LlmRequest, LlmToolCall } from './types.ts';

export interface AiSdkClientConfig extends RetrySettings {
  /** The OpenAI-compatible API root, e.g. `https://api.openai.com/v1`; the key goes as `Authorization: Bearer …`. */
  readonly baseURL: string;
  readonly fetch?: typeof fetch;
}

/**
 * The `arguments` string of a re-sent tool call: Python `json.dumps(arguments)`. A call whose model text was
 * not a JSON object is kept by the engine under UNPARSED_ARGUMENTS_KEY and goes back as that text.
 */
export const toolArgumentsText = (args: ChatToolCall['arguments']): string => {
  const keys = Object.keys(args);
  const unparsed = args[UNPARSED_ARGUMENTS_KEY];
  if (keys.length === 1 && typeof unparsed === 'string') return unparsed;
  return dumpsPy(args);
};

/** One message as the reference puts it on the wire (`to_litellm_messages`, spec Appendix B.4). */
export const toWireMessage = (message: ChatMessage): Record<string, Json> => {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant': {
      const calls = message.tool_calls === null || message.tool_calls.length === 0 ? null : message.tool_calls;
      return {
        role: 'assistant',
        content: message.content,
        tool_calls:
          calls === null
            ? null
            : calls.map((c) => ({ id: c.id, name: c.name, function: { name: c.name, arguments: toolArgumentsText(c.arguments) }, type: 'function' })),
      };
    }
    case 'tool':
      return { role: 'tool', content: message.content, tool_call_id: message.tool_call_id };
  }
};

// Keyword arguments litellm consumes itself instead of sending them to the provider; a few steer this client.
const CLIENT_SIDE_ARGS = new Set([
  'num_retries', 'max_retries', 'timeout', 'api_key', 'api_base', 'base_url', 'api_version',
  'drop_params', 'caching', 'custom_llm_provider', 'extra_headers', 'extra_body', 'mock_response',
  // tau2-edge's own: whether Anthropic's prompt cache is asked for (reasoning-args.ts).
  'prompt_cache',
]);

/** The body fields that `llmArgs` add: every key except litellm's own, plus the entries of `extra_body`. */
export const bodyArgs = (llmArgs: LlmRequest['llmArgs']): Record<string, Json> => {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(llmArgs)) {
    if (!CLIENT_SIDE_ARGS.has(key)) out[key] = toJson(value);
  }
  const extra = llmArgs['extra_body'];
  if (typeof extra === 'object' && extra !== null && !Array.isArray(extra) && !isPyFloat(extra)) Object.assign(out, toJson(extra));
  return out;
};

/** The whole request body, exactly as the reference's litellm call sends it (spec §4.7, B.2, B.4). */
export const referenceBody = (request: LlmRequest): Record<string, Json> => {
  const tools = request.tools !== null && request.tools.length > 0 ? request.tools : null;
  return {
    model: request.model,
    messages: request.messages.map(toWireMessage),
    ...(tools === null
      ? {}
      : { tools: tools.map(toJson), tool_choice: request.toolChoice ?? 'auto' }),
    ...bodyArgs(request.llmArgs),
  };
};

// ---- response ------------------------------------------------------------------------------------------

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const contentText = (content: unknown): string | null => {
  if (typeof content === 'string') return content === '' ? null : content;
  if (Array.isArray(content)) {
    const text = content.map((p) => (isRecord(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('');
    return text === '' ? null : text;
  }
  return null;
};

const readToolCalls = (raw: unknown): LlmToolCall[] => {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw new MalformedResponseError('tool_calls is not a list');
  return raw.map((call, i): LlmToolCall => {
    const fn = isRecord(call) ? call['function'] : undefined;
    if (!isRecord(call) || !isRecord(fn) || typeof fn['name'] !== 'string') throw new MalformedResponseError(`tool call ${i} has no function name`);
    const args = fn['arguments'];
    // The raw text is what keeps `2.0` a float; an object (non-standard providers) is all there is otherwise.
    const text = typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args);
    // A call without an id gets one as the SDK gives it.
    const id = typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : generateId();
    return { id, name: fn['name'], arguments: text };
  });
};

/** Reads the provider's JSON body itself: the SDK's parsed view drops invalid tool calls' text and number kinds. */
export const parseCompletionBody = (body: unknown): ParsedCompletion => {
  if (!isRecord(body)) throw new MalformedResponseError('response body is not a JSON object');
  const choices = body['choices'];
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isRecord(first) ? first['message'] : undefined;
  if (!isRecord(message)) throw new MalformedResponseError('response has no choices[0].message');
  return {
    content: contentText(message['content']),
    toolCalls: readToolCalls(message['tool_calls']),
    usage: chatCompletionsUsage(body['usage']),
    model: typeof body['model'] === 'string' ? body['model'] : null,
    rawData: body as Record<string, PyValue>,
  };
};

/** An error body as `@ai-sdk/openai-compatible` reads it: its message, else the status text. */
const failedResponseHandler = createJsonErrorResponseHandler({
  errorSchema: z.object({
    error: z.object({ message: z.string(), type: z.string().nullish(), param: z.any().nullish(), code: z.union([z.string(), z.number()]).nullish() }),
  }),
  errorToMessage: (data) => data.error.message,
});

/** A 2xx body as JSON; text that is not JSON fails as the SDK's own handler fails it. */
const jsonBody: ResponseHandler<unknown> = async ({ response, url, requestBodyValues }) => {
  const responseBody = await response.text();
  try {
    return { value: JSON.parse(responseBody) as unknown };
  } catch (cause) {
    throw new APICallError({ message: 'Invalid JSON response', cause, statusCode: response.status, responseBody, url, requestBodyValues });
  }
};

/**
 * The OpenAI-compatible client. The reference's exact body is posted through the SDK's HTTP layer (its
 * headers, its errors, which decide the retries) and the provider's JSON is read by `parseCompletionBody`:
 * `generateText` would convert the conversation and tools, validate the response and trace the call, only for
 * all of it to be replaced by that body and that parse (about a fifth of an episode's CPU on the Worker path).
 */
export const createAiSdkClient = (config: AiSdkClientConfig): LlmClient => {
  const apiKey = config.apiKey;
  const url = new URL(`${withoutTrailingSlash(config.baseURL)}/chat/completions`).toString();
  const headers = apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` };
  return retryingClient(config, async (request, attemptTimeoutMs) => {
    const timeout = AbortSignal.timeout(attemptTimeoutMs);
    try {
      const { value } = await postJsonToApi({
        url,
        headers,
        body: referenceBody(request),
        failedResponseHandler,
        successfulResponseHandler: jsonBody,
        abortSignal: timeout,
        fetch: withoutRedirects(config.fetch),
      });
      return parseCompletionBody(value);
    } catch (err) {
      throw attemptFailure(err, timeout, attemptTimeoutMs, apiKey);
    }
  });
};
