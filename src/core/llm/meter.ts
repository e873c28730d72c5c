// Metering: each model or embeddings call a caller wants accounted is reported, with its tokens and its cost
// (null for a model without a known price), to a meter the caller passes in.
import type { LlmClient, LlmResponse, LlmUsage } from './types.ts';

export interface MeteredCall {
  readonly model: string;
  readonly usage: LlmUsage | null;
  /** USD; null when the model has no known price. */
  readonly cost: number | null;
}

export type UsageMeter = (call: MeteredCall) => void;

/** A response's call as a meter reads it. */
export const meteredCall = (model: string, response: Pick<LlmResponse, 'usage' | 'cost' | 'priced'>): MeteredCall => ({
  model,
  usage: response.usage,
  cost: response.priced === false ? null : response.cost,
});

/** The client, reporting every call it completes to `meter`. */
export const meteredClient = (client: LlmClient, meter: UsageMeter): LlmClient => ({
  generate: async (request) => {
    const response = await client.generate(request);
    meter(meteredCall(request.model, response));
    return response;
  },
});
