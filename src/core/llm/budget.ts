// The USD budget as a hard limit: before a model call its cost is bounded and reserved against the payer's
// budget through a spend ledger (a port: the Worker keeps it in D1); after the call its real cost settles the
// reservation, whether the call succeeded or failed. A refused reservation ends the call as a provider refusal
// (not retried), never as an agent failure. Spend can pass the budget only by calls that cost more than their
// bound, each by its excess.
import { bodyArgs } from './ai-sdk-client.ts';
import { callCost } from './pricing.ts';
import { InfraError } from './types.ts';
import type { LlmClient, LlmRequest } from './types.ts';

/** Output tokens reserved for a call whose llm_args set neither `max_tokens` nor `max_completion_tokens`. */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 4_096;

/** Characters of the request per input token reserved: no tokenizer puts more than one token in two characters of text. */
const CHARS_PER_INPUT_TOKEN = 2;

/** What the ledger answers a reservation: its id, or why the budget refuses it. */
export type Reservation = { readonly ok: true; readonly id: string } | { readonly ok: false; readonly message: string };

/** Where calls are reserved and settled (the payer and the run are the ledger's own; a call names its model). */
export interface SpendLedger {
  reserve(call: { readonly model: string; readonly upperBoundUsd: number }): Promise<Reservation>;
  /** The call's real cost (0 for a failed call or a model without a known price). */
  settle(id: string, costUsd: number): Promise<void>;
}

/** Every budget refusal's message starts so: a run reading one in a finished simulation is stopped by its budget. */
export const BUDGET_REFUSAL = 'Quota usd_per_day reached';

export const isBudgetRefusalText = (message: string): boolean => message.startsWith(BUDGET_REFUSAL);

const outputTokensBound = (request: LlmRequest): number => {
  const body = bodyArgs(request.llmArgs);
  const asked = [body['max_completion_tokens'], body['max_tokens']].find((v): v is number => typeof v === 'number' && v > 0);
  return asked === undefined ? DEFAULT_RESERVED_OUTPUT_TOKENS : Math.ceil(asked);
};

/**
 * USD a call can cost at most: its request's characters / 2 as input tokens and its `max_tokens` (or the default
 * above) as output tokens, at the model's prices; 0 for a model without a known price.
 */
export const callUpperBound = (request: LlmRequest): number => {
  const inputChars = JSON.stringify(request.messages).length + (request.tools === null ? 0 : JSON.stringify(request.tools).length);
  const usage = { prompt_tokens: Math.ceil(inputChars / CHARS_PER_INPUT_TOKEN), completion_tokens: outputTokensBound(request) };
  return callCost(request.model, usage) ?? 0;
};

/** USD an embeddings call can cost at most: its texts' characters / 2 as input tokens; 0 for a model without a known price. */
export const embeddingUpperBound = (model: string, texts: readonly string[]): number => {
  const chars = texts.reduce((total, text) => total + text.length, 0);
  return callCost(model, { prompt_tokens: Math.ceil(chars / CHARS_PER_INPUT_TOKEN), completion_tokens: 0 }) ?? 0;
};

/**
 * A call held to `ledger`: reserved at its bound before `work` starts (a refusal is an InfraError, not retried),
 * settled after at what `work` reported spending through `spent` (0 when it reported nothing or failed).
 */
export const withinBudget = async <T>(
  ledger: SpendLedger,
  call: { readonly model: string; readonly upperBoundUsd: number },
  work: (spent: (costUsd: number) => void) => Promise<T>,
): Promise<T> => {
  const reservation = await ledger.reserve(call);
  if (!reservation.ok) throw new InfraError(reservation.message, { retryable: false });
  let cost = 0;
  try {
    return await work((costUsd) => {
      cost += costUsd;
    });
  } finally {
    await ledger.settle(reservation.id, cost);
  }
};

/** The client, each call reserved against `ledger` before it is made and settled after. */
export const budgetedClient = (client: LlmClient, ledger: SpendLedger): LlmClient => ({
  generate: (request) =>
    withinBudget(ledger, { model: request.model, upperBoundUsd: callUpperBound(request) }, async (spent) => {
      const response = await client.generate(request);
      spent(response.priced === false ? 0 : response.cost);
      return response;
    }),
});
