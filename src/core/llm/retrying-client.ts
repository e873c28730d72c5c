// The retry and error base every provider adapter shares: one attempt at a time under its own time limit, the
// reference's retry policy (litellm's `num_retries`, per-attempt `timeout`), failures classified as worth another
// attempt or not, keys taken out of every error, and the cost of the model the provider reports.
import { APICallError, InvalidResponseDataError, JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import { isPyFloat } from '../py/index.ts';
import type { PyValue } from '../py/index.ts';
import { completionCost, DEFAULT_PRICES, isPriced } from './pricing.ts';
import type { PriceTable } from './pricing.ts';
import { defaultSleep, isNetworkError, isRetryable, isRetryableStatus, isTimeoutOrAbort, statusOf, tryN } from './retry.ts';
import { InfraError, isInfraError } from './types.ts';
import type { LlmClient, LlmRequest, LlmResponse, LlmToolCall, LlmUsage, ProviderState } from './types.ts';

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_TIMEOUT_MS = 120_000;

/** The settings shared by every provider's client: its key, retries, timeouts, prices. */
export interface RetrySettings {
  /** Sent to the provider; never written into errors. Omit for local servers. */
  readonly apiKey?: string;
  /** Retries after the first attempt; the reference's litellm `num_retries` is 3. */
  readonly maxRetries?: number;
  /** Per-attempt timeout. */
  readonly timeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Delay before the first retry (doubling after). */
  readonly retryBaseMs?: number;
  readonly prices?: PriceTable;
}

export interface ParsedCompletion {
  readonly content: string | null;
  readonly toolCalls: LlmToolCall[];
  readonly usage: LlmUsage | null;
  readonly model: string | null;
  readonly rawData: Record<string, PyValue>;
  readonly providerState?: ProviderState | null;
}

/** A 2xx response whose body is not a usable chat completion; transient like a 5xx. */
export class MalformedResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedResponseError';
  }
}

const numberArg = (value: PyValue | undefined): number | undefined => {
  const n = isPyFloat(value) ? value.value : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

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
