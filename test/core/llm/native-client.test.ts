// Anthropic and Google models through their AI SDK providers, against scripted servers speaking their wire
// formats: routing by litellm-style names, what is sent (system prompt, conversation, tools, sampling
// arguments, the key header), what comes back (text, tool calls, usage, raw body), retries and error hygiene.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNativeClient, routedClient } from '../../../src/core/llm/native-client.ts';
import { modelRoute } from '../../../src/core/llm/providers.ts';
import { InfraError } from '../../../src/core/llm/types.ts';
import type { LlmRequest } from '../../../src/core/llm/types.ts';
import { pyFloat } from '../../../src/core/py/index.ts';
import { startFakeNative } from '../../support/fake-native.ts';
import type { FakeNative } from '../../support/fake-native.ts';

let fake: FakeNative;
beforeEach(async () => {
  fake = await startFakeNative();
});
afterEach(async () => fake.close());

const KEY = 'sk-native-test-key-31337';

const request = (model: string, extra: Partial<LlmRequest> = {}): LlmRequest => ({
  model,
  messages: [
    { role: 'system', content: 'You are a careful agent.' },
    { role: 'user', content: 'Please list the users.' },
  ],
  tools: [{ type: 'function', function: { name: 'get_users', description: 'Get all users.', parameters: { title: 'parameters', type: 'object', properties: {}, required: [] } } }],
  toolChoice: 'auto',
  llmArgs: { temperature: pyFloat(0), max_tokens: 256 },
  ...extra,
});

const client = (provider: 'anthropic' | 'google', extra: { maxRetries?: number } = {}) =>
  createNativeClient({ provider, apiKey: KEY, baseURL: provider === 'anthropic' ? fake.anthropicURL : fake.googleURL, sleep: async () => {}, ...extra });

describe('model routes', () => {
  it('read litellm-style names', () => {
    expect(modelRoute('anthropic/claude-sonnet-4-5')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(modelRoute('claude-3-5-haiku-latest')).toEqual({ provider: 'anthropic', model: 'claude-3-5-haiku-latest' });
    expect(modelRoute('gemini/gemini-2.5-flash')).toEqual({ provider: 'google', model: 'gemini-2.5-flash' });
    expect(modelRoute('gpt-4.1-2025-04-14')).toEqual({ provider: 'openai', model: 'gpt-4.1-2025-04-14' });
    expect(modelRoute('ollama_chat/llama3')).toEqual({ provider: 'openai', model: 'ollama_chat/llama3' });
  });

  it('a provider without credentials fails as a refusal no retry fixes', async () => {
    const routed = routedClient({ openai: { generate: () => Promise.reject(new Error('not called')) }, google: null });
    const error = await routed.generate(request('gemini/gemini-2.5-flash')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfraError);
    expect((error as InfraError).retryable).toBe(false);
    expect((error as Error).message).toBe('LLM call to gemini/gemini-2.5-flash failed: no google credentials are configured');
  });
});

describe('Anthropic', () => {
  it('sends the system prompt, conversation, tools and sampling arguments with its key; reads a tool call', async () => {
    fake.setHandler(() => ({ kind: 'tool', name: 'get_users', input: { limit: 2 } }));
    const response = await client('anthropic').generate(request('anthropic/claude-sonnet-4-5'));
    const [sent] = fake.requests;
    expect(sent!.headers['x-api-key']).toBe(KEY);
    expect(sent!.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 256, temperature: 0, tools: [{ name: 'get_users', description: 'Get all users.' }] });
    expect(JSON.stringify(sent!.body.system)).toContain('You are a careful agent.');
    expect(sent!.transcript).toEqual(['user: Please list the users.']);
    expect(response.toolCalls).toEqual([{ id: 'toolu_1', name: 'get_users', arguments: '{"limit":2}' }]);
    expect(response.content).toBeNull();
    // The prompt counts the tokens written to the prompt cache (asked for by default), as litellm counts them.
    const written = response.usage!.cache_write_tokens!;
    expect(written).toBeGreaterThan(0);
    expect(response.usage).toEqual({ completion_tokens: 6, prompt_tokens: 12 + written, cache_write_tokens: written });
    expect(response.rawData).toMatchObject({ id: 'msg_1', model: 'claude-sonnet-4-5' });
  });

  it('retries a server error, and a 401 fails at once without showing the key', async () => {
    let n = 0;
    fake.setHandler(() => (n++ === 0 ? { kind: 'error', status: 529, message: 'overloaded' } : { kind: 'text', text: 'Here they are.' }));
    expect((await client('anthropic').generate(request('anthropic/claude-sonnet-4-5'))).content).toBe('Here they are.');
    expect(fake.requests).toHaveLength(2);

    fake.setHandler(() => ({ kind: 'error', status: 401, message: `invalid x-api-key ${KEY}` }));
    const error = (await client('anthropic').generate(request('anthropic/claude-sonnet-4-5')).catch((e: unknown) => e)) as InfraError;
    expect(error).toBeInstanceOf(InfraError);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/^LLM call to anthropic\/claude-sonnet-4-5 failed after 1 attempt: HTTP 401/);
    expect(`${error.message} ${String(error.cause)}`).not.toContain(KEY);
  });
});

describe('Google', () => {
  it('sends the conversation and tools with its key; reads text and a function call', async () => {
    fake.setHandler((r) => (r.transcript.length === 1 ? { kind: 'tool', name: 'get_users', input: {} } : { kind: 'text', text: 'Two users.' }));
    const gemini = client('google');
    const first = await gemini.generate(request('gemini/gemini-test'));
    const [sent] = fake.requests;
    expect(sent!.model).toBe('gemini-test');
    expect(sent!.headers['x-goog-api-key']).toBe(KEY);
    expect(JSON.stringify(sent!.body.systemInstruction)).toContain('You are a careful agent.');
    expect(JSON.stringify(sent!.body.tools)).toContain('get_users');
    expect(sent!.body.generationConfig).toMatchObject({ temperature: 0, maxOutputTokens: 256 });
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0]).toMatchObject({ name: 'get_users', arguments: '{}' });
    expect(first.usage).toEqual({ completion_tokens: 6, prompt_tokens: 12 });

    const call = first.toolCalls[0]!;
    const second = await gemini.generate(
      request('gemini/gemini-test', {
        messages: [
          ...request('gemini/gemini-test').messages,
          { role: 'assistant', content: null, tool_calls: [{ id: call.id, name: call.name, arguments: {} }] },
          { role: 'tool', content: '[{"user_id": "user_1"}, {"user_id": "user_2"}]', tool_call_id: call.id },
        ],
      }),
    );
    expect(fake.requests[1]!.transcript).toEqual(['user: Please list the users.', 'model: [functionCall]', 'user: [functionResponse]']);
    expect(second.content).toBe('Two users.');
  });
});
