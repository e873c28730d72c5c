// The model-call port of the engine: the core builds requests in the reference's message format and a
// caller-provided client performs them (through the Vercel AI SDK in production).
import type { PyValue } from '../py/index.ts';
import type { ToolSchema } from './tool-schema.ts';

/** A tool call as sent back to the model: arguments are re-encoded with Python's `json.dumps`. */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, PyValue>>;
}

/** One message of a chat-completions request, exactly as the reference sends it (`to_litellm_messages`). */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | null }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls: readonly ChatToolCall[] | null;
      /** The participant's own reasoning state for its provider's adapter; never on the byte-exact wire. */
      readonly provider_state?: ProviderState;
    }
  | { readonly role: 'tool'; readonly content: string | null; readonly tool_call_id: string };

/**
 * A provider's opaque reasoning state of one assistant turn (thinking blocks and signatures, thought signatures,
 * encrypted reasoning items), as the AI SDK's content parts of that turn. Only the adapter of `provider` reads
 * `content`, and only for a request to the same `model`; the engine stores and returns it untouched.
 */
export interface ProviderState {
  /** The adapter that issued it: `anthropic`, `google` or `openai.responses`. */
  readonly provider: string;
  /** The model name the turn was requested with. */
  readonly model: string;
  /** The turn's content parts (reasoning, text, tool calls) with their provider options. */
  readonly content: readonly PyValue[];
  /** The reasoning text the provider showed, for reading; null when it showed none (e.g. encrypted only). */
  readonly reasoning: string | null;
  /** llm_args the provider's rules left out of the call (e.g. temperature while Anthropic thinks). */
  readonly omitted_args?: readonly string[];
}

export interface LlmRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSchema[] | null;
  /** `auto` when tools are given (reference default), `required` for the solo agent. */
  readonly toolChoice: 'auto' | 'required' | null;
  /** Extra completion arguments (temperature, seed, …), passed through to the provider. */
  readonly llmArgs: Readonly<Record<string, PyValue>>;
}

/** A tool call as the model produced it: `arguments` is the raw JSON text, parsed by the engine. */
export interface LlmToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** Tokens of one call. The reported parts are present only when non-zero: cached tokens are part of `prompt_tokens`, reasoning tokens of `completion_tokens`. */
export interface LlmUsage {
  readonly completion_tokens: number;
  readonly prompt_tokens: number;
  readonly reasoning_tokens?: number;
  readonly cache_read_tokens?: number;
  readonly cache_write_tokens?: number;
}

export interface LlmResponse {
  readonly content: string | null;
  readonly toolCalls: readonly LlmToolCall[];
  readonly usage: LlmUsage | null;
  /** USD; 0 when the model's price is unknown (as the reference records it). */
  readonly cost: number;
  /** False when the model has no known price (its `cost` 0 is then no price, not free); absent means priced. */
  readonly priced?: boolean;
  readonly rawData: Readonly<Record<string, PyValue>> | null;
  readonly generationTimeSeconds: number | null;
  /** The reasoning state to send back on this participant's next request (adapters that keep one). */
  readonly providerState?: ProviderState | null;
}

export interface LlmClient {
  generate(request: LlmRequest): Promise<LlmResponse>;
}

/**
 * A failure outside the agent's control (provider, network, storage). The episode is retried and, if it
 * keeps failing, recorded as `infrastructure_error` — never scored as an agent failure.
 */
export interface InfraErrorShape {
  readonly kind: 'infra_error';
  readonly retryable: boolean;
  readonly message: string;
}

export class InfraError extends Error implements InfraErrorShape {
  readonly kind = 'infra_error';
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'InfraError';
    this.retryable = options.retryable;
  }
}

export const isInfraError = (err: unknown): err is InfraErrorShape =>
  typeof err === 'object' && err !== null && (err as { kind?: unknown }).kind === 'infra_error';
