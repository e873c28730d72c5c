// Reasoning state across tool calls, against scripted servers that enforce each API's rule: Anthropic's thinking
// blocks with their signatures before tool_use (and no temperature while thinking), Gemini 3's thought
// signatures on function calls (the SDK's skip-validation placeholder refused), OpenAI Responses' encrypted
// reasoning items before their function calls with store false. A turn's state goes back to the same model
// only; the reasoning arguments are litellm's; Anthropic's prompt cache is on unless turned off.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNativeClient, modelArgsIssue } from '../../../src/core/llm/native-client.ts';
import { createOpenAIEndpointClient } from '../../../src/core/llm/openai-endpoint.ts';
import type { ChatMessage, LlmClient, LlmRequest, LlmResponse } from '../../../src/core/llm/types.ts';
import { pyFloat } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { endsWithToolResult, startFakeNative } from '../../support/fake-native.ts';
import { agentChatMessages, userChatMessages } from '../../../src/core/agents/history.ts';
import { nlJudgeUserPrompt } from '../../../src/core/evaluator/evaluator-nl-assertions.ts';
import { participantMessage } from '../../../src/core/schemas/message.ts';
import type { FakeNative, NativeReply, NativeRequest } from '../../support/fake-native.ts';

let fake: FakeNative;
beforeEach(async () => {
  fake = await startFakeNative();
  fake.setHandler(thinkingAgent);
});
afterEach(async () => fake.close());

/** Thinks, lists the users, then answers. */
const thinkingAgent = (request: NativeRequest): NativeReply =>
  endsWithToolResult(request)
    ? { kind: 'text', text: 'Two users.', reasoning: 'The tool answered; I can reply.' }
    : { kind: 'tool', name: 'get_users', input: {}, reasoning: 'I should look the users up first.' };

const TOOLS: LlmRequest['tools'] = [
  { type: 'function', function: { name: 'get_users', description: 'Get all users.', parameters: { title: 'parameters', type: 'object', properties: {}, required: [] } } },
];
const OPENING: ChatMessage[] = [
  { role: 'system', content: 'You are a careful agent.' },
  { role: 'user', content: 'Please list the users.' },
];

const request = (model: string, llmArgs: Record<string, PyValue>, messages: ChatMessage[] = OPENING): LlmRequest => ({ model, messages, tools: TOOLS, toolChoice: 'auto', llmArgs });

/** The conversation after the first response: its tool call (with its state, unless dropped) and the result. */
const afterToolCall = (first: LlmResponse, keepState = true): ChatMessage[] => {
  const call = first.toolCalls[0]!;
  return [
    ...OPENING,
    { role: 'assistant', content: first.content, tool_calls: [{ id: call.id, name: call.name, arguments: {} }], ...(keepState && first.providerState ? { provider_state: first.providerState } : {}) },
    { role: 'tool', content: '[{"user_id": "user_1"}, {"user_id": "user_2"}]', tool_call_id: call.id },
  ];
};

const KEY = 'sk-reasoning-test-key';

const clients = () => ({
  anthropic: createNativeClient({ provider: 'anthropic', apiKey: KEY, baseURL: fake.anthropicURL, maxRetries: 0 }),
  google: createNativeClient({ provider: 'google', apiKey: KEY, baseURL: fake.googleURL, maxRetries: 0 }),
  responses: createOpenAIEndpointClient({ baseURL: fake.responsesURL, apiKey: KEY, maxRetries: 0 }),
});

/** Two calls of a tool-use loop: the second sends the first's state back, or drops it. */
const twoTurns = async (client: LlmClient, model: string, llmArgs: Record<string, PyValue>, keepState = true) => {
  const first = await client.generate(request(model, llmArgs));
  const second = await client.generate(request(model, llmArgs, afterToolCall(first, keepState)));
  return { first, second };
};

const THINKING = { thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 4096, temperature: pyFloat(0) };

describe('Anthropic extended thinking', () => {
  it('keeps the thinking block with its signature and sends it back before the tool_use; temperature (and the seed) are left out and recorded', async () => {
    const { first, second } = await twoTurns(clients().anthropic, 'anthropic/claude-sonnet-4-5', { ...THINKING, seed: 300 });
    expect(first.providerState).toMatchObject({ provider: 'anthropic', model: 'anthropic/claude-sonnet-4-5', reasoning: 'I should look the users up first.', omitted_args: ['temperature', 'seed'] });
    expect(second.content).toBe('Two users.');
    expect(fake.refusals).toEqual([]);
    const [, sent] = fake.requests;
    expect(sent!.body.temperature).toBeUndefined();
    expect(sent!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const assistant = (sent!.body.messages as { role: string; content: { type: string; signature?: string }[] }[])[1]!;
    expect(assistant.content.map((p) => p.type)).toEqual(['thinking', 'tool_use']);
    expect(assistant.content[0]!.signature).toMatch(/^sig-/);
  });

  it('sends a redacted_thinking block back as it came', async () => {
    fake.setHandler((r) => ({ ...(thinkingAgent(r) as Extract<NativeReply, { kind: 'tool' }>), redacted: true }));
    const { anthropic } = clients();
    const first = await anthropic.generate(request('anthropic/claude-sonnet-4-5', THINKING));
    expect(first.providerState?.reasoning).toBeNull();
    await anthropic.generate(request('anthropic/claude-sonnet-4-5', THINKING, afterToolCall(first)));
    expect(fake.refusals).toEqual([]);
    const assistant = (fake.requests[1]!.body.messages as { content: { type: string; data?: string }[] }[])[1]!;
    expect(assistant.content[0]).toEqual({ type: 'redacted_thinking', data: expect.stringMatching(/^redacted-/) });
  });

  it('is refused by the API when the thinking block is dropped', async () => {
    const error = await twoTurns(clients().anthropic, 'anthropic/claude-sonnet-4-5', THINKING, false).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/HTTP 400: messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/);
  });

  it('drops the state when the model changes, as the API asks of another model', async () => {
    const { anthropic } = clients();
    const first = await anthropic.generate(request('anthropic/claude-sonnet-4-5', THINKING));
    await anthropic.generate(request('anthropic/claude-opus-4-1', { max_tokens: 256 }, afterToolCall(first)));
    const sent = fake.requests[1]!.body.messages as { content: { type: string }[] }[];
    expect(sent[1]!.content.map((p) => p.type)).toEqual(['tool_use']);
  });

  it('maps reasoning_effort to litellm budgets, and refuses an argument Anthropic does not take', async () => {
    await clients().anthropic.generate(request('anthropic/claude-sonnet-4-5', { reasoning_effort: 'low', max_tokens: 2048 }));
    expect(fake.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    const error = (await clients().anthropic.generate(request('anthropic/claude-sonnet-4-5', { frequency_penalty: pyFloat(0.5) })).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('LLM call to anthropic/claude-sonnet-4-5 failed after 1 attempt: frequency_penalty is not an argument anthropic models take');
    expect(fake.requests).toHaveLength(1);
    expect(modelArgsIssue('anthropic/claude-sonnet-4-5', { thinking: { type: 'enabled', budget_tokens: 100 } })).toEqual({ key: 'thinking', message: 'thinking.budget_tokens must be at least 1024' });
    expect(modelArgsIssue('gpt-4.1', { seed: 3, anything: 1 })).toBeNull();
  });

  it('asks for the prompt cache on the system prompt and tools by default: the second call reads it', async () => {
    const { first, second } = await twoTurns(clients().anthropic, 'anthropic/claude-sonnet-4-5', { max_tokens: 256 });
    expect(JSON.stringify(fake.requests[0]!.body.system)).toContain('"cache_control":{"type":"ephemeral"}');
    expect(JSON.stringify(fake.requests[0]!.body.tools)).toContain('"cache_control":{"type":"ephemeral"}');
    expect(first.usage!.cache_read_tokens).toBeUndefined();
    expect(first.usage!.cache_write_tokens).toBeGreaterThan(0);
    expect(second.usage!.cache_read_tokens).toBe(first.usage!.cache_write_tokens);
  });

  it('sends no cache_control with prompt_cache false', async () => {
    const { second } = await twoTurns(clients().anthropic, 'anthropic/claude-sonnet-4-5', { max_tokens: 256, prompt_cache: false });
    expect(JSON.stringify(fake.requests.map((r) => r.body))).not.toContain('cache_control');
    expect(second.usage).not.toHaveProperty('cache_read_tokens');
    expect(second.usage).not.toHaveProperty('cache_write_tokens');
  });
});

describe('Gemini 3 thought signatures', () => {
  it('keeps the signature of the function call and sends it back', async () => {
    const { first, second } = await twoTurns(clients().google, 'gemini/gemini-3-pro-preview', { reasoning_effort: 'high' });
    expect(first.providerState).toMatchObject({ provider: 'google', reasoning: 'I should look the users up first.' });
    expect(second.content).toBe('Two users.');
    expect(fake.refusals).toEqual([]);
    expect((fake.requests[0]!.body.generationConfig as Record<string, unknown>).thinkingConfig).toEqual({ thinkingLevel: 'high', includeThoughts: true });
    const model = (fake.requests[1]!.body.contents as { role: string; parts: Record<string, unknown>[] }[]).find((c) => c.role === 'model')!;
    expect(model.parts.find((p) => p.functionCall)!.thoughtSignature).toMatch(/^gsig-/);
  });

  it('is refused by the API when the signature is dropped (the SDK stands in its placeholder)', async () => {
    const error = await twoTurns(clients().google, 'gemini/gemini-3-pro-preview', {}, false).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/HTTP 400: Function call is missing a thought_signature in functionCall parts/);
    const model = (fake.requests[1]!.body.contents as { role: string; parts: Record<string, unknown>[] }[]).find((c) => c.role === 'model')!;
    expect(model.parts[0]!.thoughtSignature).toBe('skip_thought_signature_validator');
  });

  it('maps reasoning_effort to litellm budgets before Gemini 3', async () => {
    await clients().google.generate(request('gemini/gemini-2.5-flash', { reasoning_effort: 'minimal' }));
    expect((fake.requests[0]!.body.generationConfig as Record<string, unknown>).thinkingConfig).toEqual({ thinkingBudget: 1, includeThoughts: true });
  });
});

describe('OpenAI Responses', () => {
  it('stores nothing, includes the encrypted reasoning and sends it back right before its function call', async () => {
    const { first, second } = await twoTurns(clients().responses, 'openai/responses/gpt-5', { reasoning_effort: 'low' });
    expect(first.providerState).toMatchObject({ provider: 'openai.responses', model: 'openai/responses/gpt-5' });
    expect(second.content).toBe('Two users.');
    expect(fake.refusals).toEqual([]);
    expect(fake.requests[0]!.body).toMatchObject({ model: 'gpt-5', store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'low' } });
    const input = fake.requests[1]!.body.input as { type?: string; encrypted_content?: string }[];
    const at = input.findIndex((i) => i.type === 'function_call');
    expect(input[at - 1]).toMatchObject({ type: 'reasoning', encrypted_content: expect.stringMatching(/^enc-/) });
    expect(first.usage).toMatchObject({ reasoning_tokens: 4 });
  });

  it('is refused by the API when the reasoning item is dropped', async () => {
    const error = await twoTurns(clients().responses, 'openai/responses/gpt-5', {}, false).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/HTTP 400: Item '[^']+' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'/);
  });

  it('refuses an argument the Responses API does not take', () => {
    expect(modelArgsIssue('openai/responses/gpt-5', { logit_bias: {} })).toEqual({ key: 'logit_bias', message: 'logit_bias is not an argument openai.responses models take' });
  });
});

describe('whose state it is', () => {
  const state = { provider: 'anthropic', model: 'anthropic/claude-sonnet-4-5', content: [{ type: 'reasoning', text: 'secret plan' }], reasoning: 'secret plan' };
  const trajectory = [
    participantMessage('assistant', { content: 'Hello.', tool_calls: null, timestamp: null, cost: null, provider_state: state }),
    participantMessage('user', { content: 'Hi.', tool_calls: null, timestamp: null, cost: null, provider_state: { ...state, provider: 'google', model: 'gemini/gemini-3-pro-preview' } }),
  ];

  it("goes back to its own participant only, never to the other or to the judge", () => {
    const agent = agentChatMessages('system', trajectory);
    expect(agent[1]).toMatchObject({ role: 'assistant', provider_state: state });
    expect(agent[2]).toEqual({ role: 'user', content: 'Hi.' });
    const user = userChatMessages('system', trajectory);
    expect(user[1]).toEqual({ role: 'user', content: 'Hello.' });
    expect(user[2]).toMatchObject({ role: 'assistant', provider_state: { provider: 'google' } });
    expect(nlJudgeUserPrompt(trajectory, ['The agent greets.'])).not.toContain('secret plan');
  });
});
