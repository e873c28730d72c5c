// The budgeted client: every call reserves an upper bound of its cost before it is made and settles its real cost
// after (0 when it failed); a refused reservation makes no call and fails as a provider refusal, never retried.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESERVED_OUTPUT_TOKENS, budgetedClient, callUpperBound } from '../../../src/core/llm/budget.ts';
import type { SpendLedger } from '../../../src/core/llm/budget.ts';
import { callCost } from '../../../src/core/llm/pricing.ts';
import { isRefusal } from '../../../src/core/runner/refusal.ts';
import type { LlmClient, LlmRequest, LlmResponse } from '../../../src/core/llm/types.ts';

const request = (llmArgs: LlmRequest['llmArgs'] = {}): LlmRequest => ({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'x'.repeat(1000) }],
  tools: null,
  toolChoice: null,
  llmArgs,
});

const response = (cost: number): LlmResponse => ({ content: 'ok', toolCalls: [], usage: { prompt_tokens: 10, completion_tokens: 5 }, cost, rawData: null, generationTimeSeconds: null });

/** A ledger that records what it is asked, refusing every reservation over `room`. */
const ledger = (room: number) => {
  const reserved: number[] = [];
  const settled: Array<[string, number]> = [];
  const port: SpendLedger = {
    reserve: async ({ upperBoundUsd }) => {
      if (upperBoundUsd > room) return { ok: false, message: 'Quota usd_per_day reached: spent' };
      reserved.push(upperBoundUsd);
      return { ok: true, id: `r${reserved.length}` };
    },
    settle: async (id, cost) => void settled.push([id, cost]),
  };
  return { port, reserved, settled };
};

describe('budgetedClient', () => {
  it('reserves the bound, calls, then settles the real cost', async () => {
    const { port, reserved, settled } = ledger(1);
    const client = budgetedClient({ generate: async () => response(0.0001) }, port);
    expect((await client.generate(request({ max_tokens: 100 }))).cost).toBe(0.0001);
    expect(reserved).toEqual([callCost('gpt-4.1-mini', { prompt_tokens: Math.ceil(JSON.stringify(request().messages).length / 2), completion_tokens: 100 })]);
    expect(settled).toEqual([['r1', 0.0001]]);
  });

  it('a failed call settles at 0 and its error passes through', async () => {
    const { port, settled } = ledger(1);
    const client = budgetedClient({ generate: async () => Promise.reject(new Error('HTTP 500')) }, port);
    await expect(client.generate(request())).rejects.toThrow('HTTP 500');
    expect(settled).toEqual([['r1', 0]]);
  });

  it('a refused reservation makes no call and fails as a refusal (not retried)', async () => {
    const { port, settled } = ledger(0);
    let calls = 0;
    const inner: LlmClient = { generate: async () => (calls++, response(0)) };
    const error = await budgetedClient(inner, port).generate(request()).catch((e: unknown) => e);
    expect(isRefusal(error)).toBe(true);
    expect((error as Error).message).toContain('usd_per_day');
    expect(calls).toBe(0);
    expect(settled).toEqual([]);
  });

  it('bounds the output by max_tokens, else by the stated default; an unpriced model is bounded at 0', () => {
    const withMax = callUpperBound(request({ max_tokens: 10 }));
    const withDefault = callUpperBound(request());
    expect(withDefault - withMax).toBeCloseTo((DEFAULT_RESERVED_OUTPUT_TOKENS - 10) * 1.6e-6, 12);
    expect(callUpperBound({ ...request(), model: 'no-such-model' })).toBe(0);
  });
});
