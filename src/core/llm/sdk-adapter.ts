// One attempt of a provider adapter built on the AI SDK's `generateText` (Anthropic, Google, OpenAI Responses):
// the conversation with each participant's own provider state replayed, the adapter's provider options, and
// the response read back with the state to keep (the turn's content parts as the SDK returns them), the
// reasoning text, and the cached and reasoning token counts. The AI SDK itself (`ai`) loads on the first attempt:
// the default route (ai-sdk-client.ts) does without it, so an isolate that calls no other provider never evaluates it.
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { attemptFailure, retryingClient } from './retrying-client.ts';
import type { ParsedCompletion, RetrySettings } from './retrying-client.ts';
import { providerArgsIssue } from './reasoning-args.ts';
import type { ArgsAdapter } from './reasoning-args.ts';
import { InfraError } from './types.ts';
import { withoutRedirects } from './no-redirects.ts';
import { sdkUsage } from './usage.ts';
import type { LlmClient, LlmRequest, ProviderState } from './types.ts';

export interface ProviderClientConfig extends RetrySettings {
  /** The provider's API root; its public one by default. */
  readonly baseURL?: string;
  readonly fetch?: typeof fetch;
}

/** The provider's settings shared by the adapters: key, API root, and a fetch that follows no redirect. */
export const providerSettings = (config: ProviderClientConfig) => ({
  ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
  ...(config.baseURL === undefined ? {} : { baseURL: config.baseURL }),
  fetch: withoutRedirects(config.fetch),
});


const numberArg = (value: PyValue | undefined): number | undefined => {
  const n = isPyFloat(value) ? value.value : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** The sampling arguments of the run's llm_args, less those the provider's rules leave out, with the adapter's own. */
const samplingArgs = (llmArgs: LlmRequest['llmArgs'], call: Pick<AdapterCall, 'omitted' | 'sampling'>) => {
  const { omitted } = call;
  const args = {
    temperature: omitted.includes('temperature') ? undefined : numberArg(llmArgs['temperature']),
    maxOutputTokens: numberArg(llmArgs['max_tokens'] ?? llmArgs['max_completion_tokens']),
    ...call.sampling,
    topP: numberArg(llmArgs['top_p']),
    seed: omitted.includes('seed') ? undefined : numberArg(llmArgs['seed']),
  };
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
};

export interface AdapterCall {
  /** The adapter's name, as its provider state records it. */
  readonly adapter: ArgsAdapter;
  readonly model: LanguageModel;
  readonly providerOptions: Readonly<Record<string, Record<string, unknown> | undefined>>;
  /** llm_args the provider's rules leave out of this call (recorded in the turn's state). */
  readonly omitted: readonly string[];
  /** Sampling settings the adapter sets itself, over the llm_args' (e.g. what makes the wire litellm's). */
  readonly sampling?: { readonly maxOutputTokens?: number; readonly temperature?: number };
  /** Changes the SDK's messages and tools before the call (e.g. cache breakpoints). */
  readonly shape?: (call: { messages: ModelMessage[]; tools?: ToolSet }) => void;
}

type Part = { type: string; providerOptions?: unknown };

/** The SDK's names of the sampling settings, and the llm_args keys they come from. */
const SETTING_ARGS: Readonly<Record<string, readonly string[]>> = { temperature: ['temperature'], topP: ['top_p'], seed: ['seed'] };

/** llm_args the SDK left out of the request for the model (its "unsupported" warnings), e.g. temperature on gpt-5. */
const droppedArgs = (warnings: readonly { type: string; feature?: string }[], llmArgs: LlmRequest['llmArgs']): string[] =>
  warnings.flatMap((w) => (w.type === 'unsupported' && w.feature !== undefined ? (SETTING_ARGS[w.feature] ?? []) : [])).filter((key) => llmArgs[key] !== undefined);

const plain = (value: unknown): PyValue[] => JSON.parse(JSON.stringify(value)) as PyValue[];

/** The state worth keeping: reasoning parts, parts carrying provider options (signatures), or left-out args. */
const stateOf = (adapter: string, model: string, parts: readonly Part[], reasoning: string | undefined, omitted: readonly string[]): ProviderState | null => {
  const opaque = parts.some((p) => p.type === 'reasoning' || p.providerOptions !== undefined);
  if (!opaque && omitted.length === 0) return null;
  return { provider: adapter, model, content: plain(parts), reasoning: reasoning ? reasoning : null, ...(omitted.length > 0 ? { omitted_args: [...omitted] } : {}) };
};

/** One attempt through the SDK, its failure classified as the OpenAI-compatible client's are. */
const adapterAttempt = async (call: AdapterCall, request: LlmRequest, timeoutMs: number, apiKey: string | undefined): Promise<ParsedCompletion> => {
  const [{ generateText }, { sdkCall }] = await Promise.all([import('./ai-sdk-calls.ts'), import('./sdk-messages.ts')]);
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const conversation = sdkCall(request, call.adapter);
    call.shape?.(conversation);
    const result = await generateText({
      model: call.model,
      ...conversation,
      ...samplingArgs(request.llmArgs, call),
      providerOptions: call.providerOptions as never,
      maxRetries: 0,
      abortSignal: timeout,
      include: { responseBody: true },
    });
    const turn = result.response.messages.find((m) => m.role === 'assistant');
    const parts = turn === undefined || typeof turn.content === 'string' ? [] : (turn.content as Part[]);
    const omitted = [...new Set([...call.omitted, ...droppedArgs(result.warnings ?? [], request.llmArgs)])];
    return {
      content: result.text === '' ? null : result.text,
      toolCalls: result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, arguments: JSON.stringify(c.input) })),
      usage: sdkUsage(result.usage),
      model: result.response.modelId ?? null,
      rawData: (result.response.body ?? {}) as Record<string, PyValue>,
      providerState: stateOf(call.adapter, request.model, parts, result.reasoningText, omitted),
    };
  } catch (err) {
    throw attemptFailure(err, timeout, timeoutMs, apiKey);
  }
};

/**
 * An adapter's client: each call built by `callFor` from the request, with the retries of every client; llm_args
 * the provider does not take fail the call at once, as no retry changes them.
 */
export const adapterClient = (config: ProviderClientConfig, adapter: ArgsAdapter, callFor: (request: LlmRequest) => Promise<Omit<AdapterCall, 'adapter'>>): LlmClient =>
  retryingClient(config, async (request, timeoutMs) => {
    const issue = providerArgsIssue(adapter, request.llmArgs);
    if (issue) throw new InfraError(issue.message, { retryable: false });
    return adapterAttempt({ adapter, ...(await callFor(request)) }, request, timeoutMs, config.apiKey);
  });
