// What a run records is what was sent, and what the provider would refuse is refused before any call, against
// the scripted servers that refuse what each API refuses: Anthropic's max_tokens on the wire is litellm's (the
// llm_args' own, the thinking budget counted within it; budget plus 4096 when none is given), a budget at or over
// max_tokens is refused at launch naming both, an argument the SDK leaves out for a model (temperature on gpt-5)
// is recorded in omitted_args, and Gemini 3 without reasoning arguments gets litellm's defaults.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNativeClient, modelArgsIssue } from '../../../src/core/llm/native-client.ts';
import { createOpenAIEndpointClient } from '../../../src/core/llm/openai-endpoint.ts';
import type { LlmRequest } from '../../../src/core/llm/types.ts';
import { pyFloat } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { startFakeNative } from '../../support/fake-native.ts';
import type { FakeNative } from '../../support/fake-native.ts';

let fake: FakeNative;
beforeEach(async () => {
  fake = await startFakeNative();
  fake.setHandler(() => ({ kind: 'text', text: 'Hello.', reasoning: 'Greet them.' }));
});
afterEach(async () => fake.close());

const KEY = 'sk-sent-args-test-key';
const request = (model: string, llmArgs: Record<string, PyValue>): LlmRequest => ({
  model,
  messages: [
    { role: 'system', content: 'You are a careful agent.' },
    { role: 'user', content: 'Hi.' },
  ],
  tools: [],
  toolChoice: 'auto',
  llmArgs,
});
const anthropic = () => createNativeClient({ provider: 'anthropic', apiKey: KEY, baseURL: fake.anthropicURL, maxRetries: 0 });
const google = () => createNativeClient({ provider: 'google', apiKey: KEY, baseURL: fake.googleURL, maxRetries: 0 });
const responses = () => createOpenAIEndpointClient({ baseURL: fake.responsesURL, apiKey: KEY, maxRetries: 0 });

describe("Anthropic's max_tokens", () => {
  it('is the llm_args max_tokens on the wire, the thinking budget within it (litellm sends it as given)', async () => {
    await anthropic().generate(request('anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 8000 }, max_tokens: 12000 }));
    expect(fake.requests[0]!.body).toMatchObject({ max_tokens: 12000, thinking: { type: 'enabled', budget_tokens: 8000 } });
    expect(fake.refusals).toEqual([]);
  });

  it("is the budget plus litellm's 4096 when thinking is on and none is given; the model's own limit without thinking", async () => {
    await anthropic().generate(request('anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 8000 } }));
    await anthropic().generate(request('anthropic/claude-sonnet-4-5', { reasoning_effort: 'high' }));
    await anthropic().generate(request('anthropic/claude-sonnet-4-5', { max_tokens: 512, temperature: pyFloat(0) }));
    expect(fake.requests.map((r) => r.body.max_tokens)).toEqual([12096, 8192, 512]);
    expect(fake.refusals).toEqual([]);
  });

  it('refuses at launch a thinking budget at or over max_tokens, naming both (the API refuses every such call)', async () => {
    expect(modelArgsIssue('anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 8000 }, max_tokens: 4096 })).toEqual({
      key: 'thinking',
      message: 'thinking.budget_tokens (8000) must be less than max_tokens (4096): Anthropic counts the thinking within max_tokens and refuses every call otherwise',
    });
    expect(modelArgsIssue('anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 4096 }, max_completion_tokens: 4096 })?.key).toBe('thinking');
    expect(modelArgsIssue('anthropic/claude-sonnet-4-5', { reasoning_effort: 'high', max_tokens: 1000 })).toEqual({
      key: 'reasoning_effort',
      message: "reasoning_effort high's thinking budget (4096) must be less than max_tokens (1000): Anthropic counts the thinking within max_tokens and refuses every call otherwise",
    });
    expect(modelArgsIssue('anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 4095 }, max_tokens: 4096 })).toBeNull();
    expect(modelArgsIssue('anthropic/claude-sonnet-4-5', { thinking: { type: 'disabled' }, max_tokens: 10 })).toBeNull();
    const error = (await anthropic()
      .generate(request('anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 64000 }, max_tokens: 64000 }))
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('thinking.budget_tokens (64000) must be less than max_tokens (64000)');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('arguments the SDK leaves out for a model', () => {
  it('temperature on a gpt-5 Responses model is not sent and is recorded in omitted_args', async () => {
    const response = await responses().generate(request('openai/responses/gpt-5', { temperature: pyFloat(0), reasoning_effort: 'low' }));
    expect(fake.requests[0]!.body).not.toHaveProperty('temperature');
    expect(response.providerState).toMatchObject({ provider: 'openai.responses', omitted_args: ['temperature'] });
  });

  it('a model that takes temperature gets it, and nothing is recorded as left out', async () => {
    const response = await responses().generate(request('openai/responses/gpt-4.1', { temperature: pyFloat(0) }));
    expect(fake.requests[0]!.body).toMatchObject({ temperature: 0 });
    expect(response.providerState?.omitted_args).toBeUndefined();
  });
});

describe('Gemini 3 without reasoning arguments', () => {
  it("is sent litellm's defaults: temperature 1.0 and no thinking config; a given temperature, and Gemini 2.5, stay as they are", async () => {
    await google().generate(request('gemini/gemini-3-pro-preview', {}));
    await google().generate(request('gemini/gemini-3-pro-preview', { temperature: pyFloat(0) }));
    await google().generate(request('gemini/gemini-2.5-flash', {}));
    const configs = fake.requests.map((r) => r.body.generationConfig as Record<string, unknown> | undefined);
    expect(configs[0]).toEqual({ temperature: 1 });
    expect(configs[1]).toEqual({ temperature: 0 });
    expect(configs[2]?.temperature).toBeUndefined();
    expect(configs.map((c) => c?.thinkingConfig)).toEqual([undefined, undefined, undefined]);
  });
});
