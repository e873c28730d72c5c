// The production LlmClient: one chat-completions call through the Vercel AI SDK's HTTP layer
// (`@ai-sdk/provider-utils`), sending the reference's exact payload (reference: llm_utils.generate).
import { APICallError, InvalidResponseDataError, JSONParseError, TypeValidationError, jsonSchema, tool } from 'ai';
import type { AssistantContent, JSONSchema7, ModelMessage, ToolSet } from 'ai';
import { createJsonErrorResponseHandler, generateId, postJsonToApi, withoutTrailingSlash } from '@ai-sdk/provider-utils';
import type { ResponseHandler } from '@ai-sdk/provider-utils';
import { z } from 'zod';
import { UNPARSED_ARGUMENTS_KEY } from './tool-schema.ts';
import type { ToolSchema } from './tool-schema.ts';
import { dumpsPy, isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { completionCost, DEFAULT_PRICES, isPriced } from './pricing.ts';
import type { PriceTable } from './pricing.ts';
import { defaultSleep, isNetworkError, isRetryable, isRetryableStatus, isTimeoutOrAbort, statusOf, tryN } from './retry.ts';
import { InfraError, isInfraError } from './types.ts';
import { withoutRedirects } from './no-redirects.ts';
import { chatCompletionsUsage } from './usage.ts';
import type { ChatMessage, ChatToolCall, LlmClient, LlmRequest, LlmResponse, LlmToolCall, LlmUsage, ProviderState } from './types.ts';

export interface AiSdkClientConfig {
  /** The OpenAI-compatible API root, e.g. `https://api.openai.com/v1`. */
  readonly baseURL: string;
  /** Sent as `Authorization: Bearer …`; never written into errors. Omit for local servers. */
  readonly apiKey?: string;
  readonly fetch?: typeof fetch;
  /** Retries after the first attempt; the reference's litellm `num_retries` is 3. */
  readonly maxRetries?: number;
  /** Per-attempt timeout. */
  readonly timeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Delay before the first retry (doubling after). */
  readonly retryBaseMs?: number;
  readonly prices?: PriceTable;
}

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_TIMEOUT_MS = 120_000;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A PyValue (or a JSON-like schema) as plain JSON for the SDK's `JSON.stringify`: a PyFloat becomes its number,
 * as `2.0` and `2` are the same JSON number to the provider.
 */
const toJson = (value: unknown): Json => {
  if (isPyFloat(value)) return value.value;
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, toJson(v)]));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return null;
};

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

/**
 * The same conversation as AI SDK model messages, so the SDK's own view of the call is the real one. An
 * assistant turn whose provider state `replays` accepts goes back as the content its provider returned.
 */
const toModelMessages = (messages: readonly ChatMessage[], replays: (state: ProviderState) => boolean): ModelMessage[] => {
  const toolNames = new Map<string, string>();
  return messages.map((m): ModelMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content ?? '' };
      case 'assistant': {
        const calls = m.tool_calls ?? [];
        for (const c of calls) toolNames.set(c.id, c.name);
        if (m.provider_state !== undefined && replays(m.provider_state)) {
          return { role: 'assistant', content: toJson(m.provider_state.content) as unknown as Exclude<AssistantContent, string> };
        }
        if (calls.length === 0) return { role: 'assistant', content: m.content ?? '' };
        return {
          role: 'assistant',
          content: [
            ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
            ...calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: toJson(c.arguments) })),
          ],
        };
      }
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: m.tool_call_id,
              toolName: toolNames.get(m.tool_call_id) ?? '',
              output: { type: 'text', value: m.content ?? '' },
            },
          ],
        };
    }
  });
};

/** The tools as SDK tools without `execute`: the engine runs them, the SDK only reports the calls. */
const toSdkTools = (schemas: readonly ToolSchema[]): ToolSet =>
  Object.fromEntries(
    schemas.map((s) => [s.function.name, tool({ description: s.function.description, inputSchema: jsonSchema(toJson(s.function.parameters) as JSONSchema7) })]),
  );

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

const numberArg = (value: PyValue | undefined): number | undefined => {
  const n = isPyFloat(value) ? value.value : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

// ---- response ------------------------------------------------------------------------------------------

/** A 2xx response whose body is not a usable chat completion; transient like a 5xx. */
class MalformedResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedResponseError';
  }
}

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

export interface ParsedCompletion {
  readonly content: string | null;
  readonly toolCalls: LlmToolCall[];
  readonly usage: LlmUsage | null;
  readonly model: string | null;
  readonly rawData: Record<string, PyValue>;
  readonly providerState?: ProviderState | null;
}

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

// ---- errors --------------------------------------------------------------------------------------------

const MAX_DETAIL = 300;

/** Removes the API key (and any bearer token) from text that may end up in an error or a log. */
export const redactSecrets = (text: string, apiKey: string | undefined): string => {
  const withoutKey = apiKey ? text.split(apiKey).join('[redacted]') : text;
  return withoutKey.replace(/Bearer\s+[^\s"',}]+/gi, 'Bearer [redacted]');
};

const detailOf = (err: unknown): string => {
  const message = err instanceof Error ? err.message : String(err);
  const oneLine = message.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_DETAIL ? `${oneLine.slice(0, MAX_DETAIL)}…` : oneLine;
};

/** Why an attempt failed, and whether another attempt may succeed. */
export const classifyFailure = (err: unknown, timedOut: boolean, timeoutMs: number): { retryable: boolean; reason: string } => {
  const detail = detailOf(err);
  if (timedOut) return { retryable: true, reason: `timed out after ${timeoutMs} ms` };
  if (isInfraError(err)) return { retryable: err.retryable, reason: detail };
  if (isTimeoutOrAbort(err)) return { retryable: true, reason: `request aborted: ${detail}` };
  if (APICallError.isInstance(err)) {
    const status = statusOf(err);
    if (status === undefined) return { retryable: true, reason: `network error: ${detail}` };
    if (status >= 200 && status < 300) return { retryable: true, reason: `malformed response body (HTTP ${status}): ${detail}` };
    return { retryable: isRetryableStatus(status), reason: `HTTP ${status}: ${detail}` };
  }
  if (
    err instanceof MalformedResponseError ||
    InvalidResponseDataError.isInstance(err) ||
    TypeValidationError.isInstance(err) ||
    JSONParseError.isInstance(err)
  ) {
    return { retryable: true, reason: `malformed response body: ${detail}` };
  }
  if (isNetworkError(err)) return { retryable: true, reason: `network error: ${detail}` };
  const name = err instanceof Error ? err.name : typeof err;
  return { retryable: isRetryable(err), reason: `${name}: ${detail}` };
};

// ---- the client ----------------------------------------------------------------------------------------

/** The SDK's settings shared by every provider's client: retries, timeouts, prices. */
export type RetrySettings = Pick<AiSdkClientConfig, 'maxRetries' | 'timeoutMs' | 'sleep' | 'retryBaseMs' | 'prices' | 'apiKey'>;

/** One attempt at a call, with its own time limit; its failure is an InfraError saying whether to retry. */
export type Attempt = (request: LlmRequest, timeoutMs: number) => Promise<ParsedCompletion>;

/**
 * A client from one attempt: the reference's retry policy (litellm's `num_retries`, per-attempt `timeout`),
 * the measured time of the whole call and the cost of the model the provider reports.
 */
export const retryingClient = (config: RetrySettings, attempt: Attempt): LlmClient => {
  const maxRetries = config.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sleep = config.sleep ?? defaultSleep;
  const prices = config.prices ?? DEFAULT_PRICES;
  return {
    async generate(request: LlmRequest): Promise<LlmResponse> {
      const retries = numberArg(request.llmArgs['num_retries']) ?? maxRetries;
      const timeoutSeconds = numberArg(request.llmArgs['timeout']);
      const attemptTimeoutMs = timeoutSeconds === undefined ? timeoutMs : timeoutSeconds * 1000;
      // Like the reference, the measured time spans the whole call, retries included.
      const started = performance.now();
      let attempts = 0;
      let parsed: ParsedCompletion;
      try {
        parsed = await tryN(
          Math.floor(retries) + 1,
          (n) => {
            attempts = n;
            return attempt(request, attemptTimeoutMs);
          },
          { sleep, ...(config.retryBaseMs === undefined ? {} : { baseMs: config.retryBaseMs }) },
        );
      } catch (err) {
        const last = err instanceof InfraError ? err : new InfraError(redactSecrets(detailOf(err), config.apiKey), { retryable: false });
        throw new InfraError(`LLM call to ${request.model} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${last.message}`, {
          retryable: last.retryable,
          cause: last.cause,
        });
      }
      const generationTimeSeconds = (performance.now() - started) / 1000;
      // litellm prices the model the provider reports (a dated snapshot); the requested name is the fallback.
      const priced = parsed.model !== null && isPriced(parsed.model, prices) ? parsed.model : request.model;
      return {
        content: parsed.content,
        toolCalls: parsed.toolCalls,
        usage: parsed.usage,
        cost: completionCost(priced, parsed.usage, prices),
        priced: isPriced(priced, prices),
        rawData: parsed.rawData,
        generationTimeSeconds,
        providerState: parsed.providerState ?? null,
      };
    },
  };
};

/** A failed attempt as an InfraError, with the key (and any bearer token) taken out of its text. */
export const attemptFailure = (err: unknown, timeout: AbortSignal, timeoutMs: number, apiKey: string | undefined): InfraError => {
  const { retryable, reason } = classifyFailure(err, timeout.aborted, timeoutMs);
  return new InfraError(redactSecrets(reason, apiKey), { retryable, cause: new Error(redactSecrets(detailOf(err), apiKey)) });
};

/**
 * The SDK's view of a request's conversation and tools, replaying the provider state that `adapter` issued for
 * the requested model; state from another provider or model is left out, as the AI SDK leaves it out.
 */
export const sdkCall = (request: LlmRequest, adapter: string) => {
  const tools = request.tools !== null && request.tools.length > 0 ? toSdkTools(request.tools) : undefined;
  return {
    messages: toModelMessages(request.messages, (state) => state.provider === adapter && state.model === request.model),
    allowSystemInMessages: true as const,
    ...(tools === undefined ? {} : { tools, toolChoice: request.toolChoice ?? ('auto' as const) }),
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
