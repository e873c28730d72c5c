// The AI SDK client against a scripted OpenAI-compatible server: request payload parity with the reference,
// raw tool-call text, usage and cost, retries, timeouts and error hygiene.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAiSdkClient } from '../../../src/core/llm/ai-sdk-client.ts';
import type { AiSdkClientConfig } from '../../../src/core/llm/ai-sdk-client.ts';
import { InfraError } from '../../../src/core/llm/types.ts';
import type { ChatMessage, LlmRequest } from '../../../src/core/llm/types.ts';
import type { ToolSchema } from '../../../src/core/llm/tool-schema.ts';
import { UNPARSED_ARGUMENTS_KEY } from '../../../src/core/llm/tool-schema.ts';
import { pyFloat } from '../../../src/core/py/index.ts';
import {
  garbage,
  hang,
  httpError,
  startFakeOpenAI,
  text,
  toolCall,
  toolCalls,
} from '../../support/fake-openai.ts';
import type { FakeOpenAI } from '../../support/fake-openai.ts';
import {
  AGENT_SYSTEM,
  B4_MOCK_FIRST_USER_CALL,
  B4_MOCK_LAST_USER_CALL,
  B4_MOCK_SECOND_AGENT_CALL,
  B4_TELECOM_LAST_USER_CALL_AFTER_SYSTEM,
  MOCK_AGENT_TOOLS,
  MOCK_USER_TOOLS,
  TELECOM_USER_TOOLS_SUBSET,
  USER_SYSTEM,
} from './reference-payloads.ts';

const API_KEY = 'sk-test-SECRET-0123456789abcdef';
const MODEL = 'gpt-4.1-2025-04-14';

let fake: FakeOpenAI;
let sleeps: number[];

beforeEach(async () => {
  fake = await startFakeOpenAI();
  sleeps = [];
});
afterEach(async () => {
  await fake.close();
});

const makeClient = (over: Partial<AiSdkClientConfig> = {}) =>
  createAiSdkClient({
    baseURL: fake.baseURL,
    apiKey: API_KEY,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...over,
  });

const request = (messages: ChatMessage[], over: Partial<LlmRequest> = {}): LlmRequest => ({
  model: MODEL,
  messages,
  tools: null,
  toolChoice: null,
  llmArgs: { temperature: pyFloat(0), seed: 626729 },
  ...over,
});

const HELLO: ChatMessage[] = [
  { role: 'system', content: AGENT_SYSTEM },
  { role: 'user', content: 'hello' },
];

const body = (i = 0): Record<string, unknown> => {
  const captured = fake.requests[i];
  if (captured === undefined) throw new Error(`no request #${i}`);
  return captured.body as Record<string, unknown>;
};

/** Deep equality and identical key order: what the reference's JSON would read back as. */
const expectSameJson = (actual: unknown, expected: unknown): void => {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
};

const rejection = async (promise: Promise<unknown>): Promise<InfraError> => {
  try {
    await promise;
  } catch (err) {
    if (!(err instanceof InfraError)) throw err;
    return err;
  }
  throw new Error('expected the call to fail');
};

describe('request payload parity with the reference (spec §4.7, B.2, B.4)', () => {
  it('mock second agent call: messages, tool schemas, tool_choice, temperature and seed equal the reference payload', async () => {
    fake.enqueue(text('Done.'));
    await makeClient().generate(
      request(
        [
          { role: 'system', content: AGENT_SYSTEM },
          { role: 'assistant', content: 'Hi! How can I help you today?', tool_calls: null },
          { role: 'user', content: "Hi, please create a task called 'Important Meeting' for user_1." },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_a1', name: 'create_task', arguments: { user_id: 'user_1', title: 'Important Meeting' } }],
          },
          {
            role: 'tool',
            content: '{"task_id": "task_2", "title": "Important Meeting", "description": null, "status": "pending"}',
            tool_call_id: 'call_a1',
          },
        ],
        { tools: MOCK_AGENT_TOOLS as ToolSchema[], toolChoice: 'auto' },
      ),
    );
    const sent = body();
    expect(Object.keys(sent)).toEqual(['model', 'messages', 'tools', 'tool_choice', 'temperature', 'seed']);
    expect(sent['model']).toBe(MODEL);
    expectSameJson(sent['messages'], B4_MOCK_SECOND_AGENT_CALL);
    expectSameJson(sent['tools'], MOCK_AGENT_TOOLS);
    expect(sent['tool_choice']).toBe('auto');
    expect(sent['temperature']).toBe(0);
    expect(sent['seed']).toBe(626729);
  });

  it('mock user-simulator calls (first and last) equal the reference payloads, with the user tools', async () => {
    fake.enqueue(text("Hi, please create a task called 'Important Meeting' for user_1."), text('Thanks! ###STOP###'));
    const client = makeClient();
    const userTools = { tools: MOCK_USER_TOOLS as ToolSchema[], toolChoice: 'auto' as const };
    await client.generate(
      request(
        [
          { role: 'system', content: USER_SYSTEM },
          { role: 'user', content: 'Hi! How can I help you today?' },
        ],
        userTools,
      ),
    );
    await client.generate(
      request(
        [
          { role: 'system', content: USER_SYSTEM },
          { role: 'user', content: 'Hi! How can I help you today?' },
          { role: 'assistant', content: "Hi, please create a task called 'Important Meeting' for user_1.", tool_calls: null },
          { role: 'user', content: "The task 'Important Meeting' has been created successfully (task_2)." },
        ],
        userTools,
      ),
    );
    expectSameJson(body(0)['messages'], B4_MOCK_FIRST_USER_CALL);
    expectSameJson(body(1)['messages'], B4_MOCK_LAST_USER_CALL);
    expectSameJson(body(1)['tools'], MOCK_USER_TOOLS);
  });

  it("telecom user turn: role-flipped history with no-argument tool calls sent as '{}' equals the reference payload", async () => {
    fake.enqueue(text('Done, I have signal now. ###STOP###'));
    const status = 'Status Bar: 📶⁴ Excellent | 5G | 📱 Data Enabled | 🔋 80%';
    await makeClient().generate(
      request(
        [
          { role: 'system', content: 'telecom user system prompt' },
          { role: 'user', content: 'Hi! How can I help you today?' },
          { role: 'assistant', content: 'My phone shows No Service.', tool_calls: null },
          { role: 'user', content: 'Please toggle airplane mode off.' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_u1', name: 'toggle_airplane_mode', arguments: {} }] },
          { role: 'tool', content: `Airplane Mode is now OFF.\n${status}`, tool_call_id: 'call_u1' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_u2', name: 'check_status_bar', arguments: {} }] },
          { role: 'tool', content: status, tool_call_id: 'call_u2' },
        ],
        { tools: TELECOM_USER_TOOLS_SUBSET as ToolSchema[], toolChoice: 'auto' },
      ),
    );
    const messages = body()['messages'] as unknown[];
    expect(messages[0]).toEqual({ role: 'system', content: 'telecom user system prompt' });
    expectSameJson(messages.slice(1), B4_TELECOM_LAST_USER_CALL_AFTER_SYSTEM);
  });

  it("re-sent tool-call arguments are Python json.dumps text: ', ' and ': ' separators, floats keep '.0', non-ASCII escaped", async () => {
    fake.enqueue(text('ok'));
    await makeClient().generate(
      request([
        { role: 'system', content: AGENT_SYSTEM },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              name: 'book_reservation',
              arguments: { total_baggages: pyFloat(2), nonfree_baggages: 0, name: 'Zoë', flights: [{ n: 1 }], insurance: null },
            },
          ],
        },
        { role: 'tool', content: 'ok', tool_call_id: 'call_1' },
      ]),
    );
    const assistant = (body()['messages'] as Array<{ tool_calls?: Array<{ function: { arguments: string } }> }>)[1];
    expect(assistant?.tool_calls?.[0]?.function.arguments).toBe(
      '{"total_baggages": 2.0, "nonfree_baggages": 0, "name": "Zo\\u00eb", "flights": [{"n": 1}], "insurance": null}',
    );
  });

  it('a tool call the engine kept as unparsed model text is re-sent as that text', async () => {
    fake.enqueue(text('ok'));
    await makeClient().generate(
      request([
        { role: 'system', content: AGENT_SYSTEM },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', name: 'get_users', arguments: { [UNPARSED_ARGUMENTS_KEY]: '{"a": 1,' } }] },
        { role: 'tool', content: 'Error: …', tool_call_id: 'c' },
      ]),
    );
    const assistant = (body()['messages'] as Array<{ tool_calls?: Array<{ function: { arguments: string } }> }>)[1];
    expect(assistant?.tool_calls?.[0]?.function.arguments).toBe('{"a": 1,');
  });

  it('without tools the body has neither tools nor tool_choice', async () => {
    fake.enqueue(text('ok'));
    await makeClient().generate(request(HELLO));
    expect(body()).not.toHaveProperty('tools');
    expect(body()).not.toHaveProperty('tool_choice');
  });

  it("toolChoice 'required' (solo agent) is sent as tool_choice 'required'", async () => {
    fake.enqueue(toolCall('get_users', '{}'));
    await makeClient().generate(request(HELLO, { tools: MOCK_AGENT_TOOLS as ToolSchema[], toolChoice: 'required' }));
    expect(body()['tool_choice']).toBe('required');
  });

  it('llmArgs are top-level body fields, unknown keys included, but litellm-only keys (num_retries, api_key) are not sent', async () => {
    fake.enqueue(text('ok'));
    await makeClient().generate(
      request(HELLO, {
        llmArgs: { temperature: pyFloat(0.7), top_p: pyFloat(0.9), max_tokens: 256, seed: 1, reasoning_effort: 'low', num_retries: 3, api_key: 'sk-other' },
      }),
    );
    const sent = body();
    expect(sent).toMatchObject({ temperature: 0.7, top_p: 0.9, max_tokens: 256, seed: 1, reasoning_effort: 'low' });
    expect(sent).not.toHaveProperty('num_retries');
    expect(sent).not.toHaveProperty('api_key');
    expect(fake.requests[0]?.bodyText).not.toContain('sk-other');
  });

  it('null content is sent as null for assistant and user messages', async () => {
    fake.enqueue(text('ok'));
    await makeClient().generate(
      request([
        { role: 'system', content: AGENT_SYSTEM },
        { role: 'user', content: null },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', name: 'get_users', arguments: {} }] },
        { role: 'tool', content: '[]', tool_call_id: 'c1' },
      ]),
    );
    const messages = body()['messages'] as Array<Record<string, unknown>>;
    expect(messages[1]).toEqual({ role: 'user', content: null });
    expect(messages[2]).toHaveProperty('content', null);
  });

  it('sends the API key as a bearer token, and no Authorization header without a key', async () => {
    fake.enqueue(text('a'), text('b'));
    await makeClient().generate(request(HELLO));
    await makeClient({ apiKey: undefined }).generate(request(HELLO));
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(fake.requests[1]?.headers.authorization).toBeUndefined();
    expect(fake.requests[0]?.path).toBe('/v1/chat/completions');
  });
});

describe('the response as the engine receives it', () => {
  it('tool-call arguments reach the engine as the raw provider text, so 2.0 stays a float', async () => {
    fake.enqueue(toolCall('update_reservation_baggages', '{"reservation_id": "4WQ150", "total_baggages": 2.0}', 'call_9'));
    const response = await makeClient().generate(request(HELLO, { tools: MOCK_AGENT_TOOLS as ToolSchema[], toolChoice: 'auto' }));
    expect(response.toolCalls).toEqual([
      { id: 'call_9', name: 'update_reservation_baggages', arguments: '{"reservation_id": "4WQ150", "total_baggages": 2.0}' },
    ]);
    expect(response.content).toBeNull();
  });

  it('tool calls with invalid JSON arguments come through with their raw text, in order, next to valid ones', async () => {
    fake.enqueue(
      toolCalls([
        { id: 'c1', name: 'create_task', arguments: '{"user_id": "user_1", "title": ' },
        { id: 'c2', name: 'get_users', arguments: '{}' },
        { id: 'c3', name: 'create_task', arguments: 'not json at all' },
      ]),
    );
    const response = await makeClient().generate(request(HELLO, { tools: MOCK_AGENT_TOOLS as ToolSchema[], toolChoice: 'auto' }));
    expect(response.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['c1', 'create_task', '{"user_id": "user_1", "title": '],
      ['c2', 'get_users', '{}'],
      ['c3', 'create_task', 'not json at all'],
    ]);
    expect(fake.requests).toHaveLength(1);
  });

  it('tool calls the provider sent without an id get distinct generated ids', async () => {
    fake.enqueue(toolCalls([{ id: '', name: 'get_users', arguments: '{}' }, { id: '', name: 'get_users', arguments: '{}' }]));
    const response = await makeClient().generate(request(HELLO, { tools: MOCK_AGENT_TOOLS as ToolSchema[], toolChoice: 'auto' }));
    const [first, second] = response.toolCalls.map((c) => c.id);
    expect(first).toMatch(/^\w+$/);
    expect(second).toMatch(/^\w+$/);
    expect(first).not.toBe(second);
  });

  it('text content is returned as is and empty content becomes null', async () => {
    fake.enqueue(text('Hello there'), text(''));
    const client = makeClient();
    const first = await client.generate(request(HELLO));
    const second = await client.generate(request(HELLO));
    expect(first.content).toBe('Hello there');
    expect(first.toolCalls).toEqual([]);
    expect(second.content).toBeNull();
  });

  it('text that accompanies tool calls is kept', async () => {
    fake.enqueue(toolCalls([{ id: 'c', name: 'get_users', arguments: '{}' }], { content: 'Let me look.' }));
    const response = await makeClient().generate(request(HELLO, { tools: MOCK_AGENT_TOOLS as ToolSchema[], toolChoice: 'auto' }));
    expect(response.content).toBe('Let me look.');
    expect(response.toolCalls).toHaveLength(1);
  });

  it('usage is recorded and cost comes from the price table (gpt-4.1: $2/M prompt, $8/M completion)', async () => {
    fake.enqueue(text('ok', { usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 } }));
    const response = await makeClient().generate(request(HELLO));
    expect(response.usage).toEqual({ completion_tokens: 100, prompt_tokens: 1000 });
    expect(response.cost).toBeCloseTo(0.0028, 12);
  });

  it('cached prompt tokens are billed at the cached rate; cached and reasoning tokens are kept in the usage', async () => {
    fake.enqueue(
      text('ok', {
        usage: { prompt_tokens: 1000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 400 }, completion_tokens_details: { reasoning_tokens: 70 } },
      }),
    );
    const response = await makeClient().generate(request(HELLO));
    expect(response.usage).toEqual({ completion_tokens: 100, prompt_tokens: 1000, reasoning_tokens: 70, cache_read_tokens: 400 });
    // Reasoning tokens are part of the completion, billed at the output rate.
    expect(response.cost).toBeCloseTo(600 * 2e-6 + 400 * 5e-7 + 100 * 8e-6, 12);
    expect(response.priced).toBe(true);
  });

  it('an unknown model costs 0 and a missing usage gives usage null and cost 0', async () => {
    fake.enqueue(text('ok', { usage: { prompt_tokens: 1000, completion_tokens: 100 } }), text('ok', { usage: null }));
    const client = makeClient();
    const unknown = await client.generate(request(HELLO, { model: 'my-local-llama' }));
    const noUsage = await client.generate(request(HELLO));
    expect(unknown.usage).toEqual({ completion_tokens: 100, prompt_tokens: 1000 });
    expect(unknown.cost).toBe(0);
    expect(unknown.priced).toBe(false);
    expect(noUsage.usage).toBeNull();
    expect(noUsage.cost).toBe(0);
  });

  it('cost uses the model the provider reports when the request names an alias, and a configured price table', async () => {
    fake.enqueue(text('ok', { model: 'gpt-4o-mini-2024-07-18', usage: { prompt_tokens: 1000, completion_tokens: 1000 } }));
    fake.enqueue(text('ok', { usage: { prompt_tokens: 10, completion_tokens: 10 } }));
    const aliased = await makeClient().generate(request(HELLO, { model: 'proxy/cheap' }));
    const custom = await makeClient({ prices: { 'my-model': { inputPerToken: 1, outputPerToken: 2 } } }).generate(
      request(HELLO, { model: 'vllm/my-model' }),
    );
    expect(aliased.cost).toBeCloseTo(1000 * 1.5e-7 + 1000 * 6e-7, 12);
    expect(custom.cost).toBe(30);
  });

  it('rawData is the provider response body and generationTimeSeconds a positive duration', async () => {
    fake.enqueue(text('ok'));
    const response = await makeClient().generate(request(HELLO));
    expect(response.rawData).toMatchObject({ id: 'chatcmpl-fake-1', object: 'chat.completion', model: MODEL });
    expect((response.rawData?.['choices'] as Array<{ message: { content: string } }>)[0]?.message.content).toBe('ok');
    expect(response.generationTimeSeconds).toBeGreaterThan(0);
    expect(response.generationTimeSeconds).toBeLessThan(30);
  });
});

describe('retries and failures', () => {
  it('429 then 500 then success: three attempts with growing jittered backoff', async () => {
    fake.enqueue(httpError(429, 'Rate limit reached'), httpError(500, 'boom'), text('finally'));
    const response = await makeClient().generate(request(HELLO));
    expect(response.content).toBe('finally');
    expect(fake.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(375);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
    expect(sleeps[1]).toBeGreaterThan(sleeps[0]!);
  });

  it('each retry re-sends the identical body', async () => {
    fake.enqueue(httpError(503), text('ok'));
    await makeClient().generate(request(HELLO, { tools: MOCK_AGENT_TOOLS as ToolSchema[], toolChoice: 'auto' }));
    expect(fake.requests[1]?.bodyText).toBe(fake.requests[0]?.bodyText);
  });

  it('a request that hangs is cut by the per-attempt timeout and retried', async () => {
    fake.enqueue(hang(), text('after the hang'));
    const response = await makeClient({ timeoutMs: 200 }).generate(request(HELLO));
    expect(response.content).toBe('after the hang');
    expect(fake.requests).toHaveLength(2);
  });

  it('timeouts on every attempt end in a retryable InfraError naming the timeout', async () => {
    fake.enqueue(hang(), hang());
    const err = await rejection(makeClient({ timeoutMs: 150, maxRetries: 1 }).generate(request(HELLO)));
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('timed out after 150 ms');
    expect(err.message).toContain('after 2 attempts');
  });

  it('a garbage (non-JSON) 200 body is retried', async () => {
    fake.enqueue(garbage('<html>oops</html>'), text('ok'));
    const response = await makeClient().generate(request(HELLO));
    expect(response.content).toBe('ok');
    expect(fake.requests).toHaveLength(2);
  });

  it('a JSON 200 body that is not a chat completion is retried', async () => {
    fake.enqueue({ kind: 'raw', status: 200, body: '{"choices": []}' }, { kind: 'raw', status: 200, body: '{"hello": 1}' }, text('ok'));
    const response = await makeClient().generate(request(HELLO));
    expect(response.content).toBe('ok');
    expect(fake.requests).toHaveLength(3);
  });

  it('401 is not retried: one attempt, InfraError with retryable false naming the status', async () => {
    fake.enqueue(httpError(401, 'Incorrect API key provided'), text('never'));
    const err = await rejection(makeClient().generate(request(HELLO)));
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('HTTP 401');
    expect(err.message).toContain('after 1 attempt:');
    expect(fake.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it.each([400, 403, 404])('%i is not retried', async (status) => {
    fake.enqueue(httpError(status), text('never'));
    const err = await rejection(makeClient().generate(request(HELLO)));
    expect(err.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it.each([408, 409, 502])('%i is retried', async (status) => {
    fake.enqueue(httpError(status), text('ok'));
    await makeClient().generate(request(HELLO));
    expect(fake.requests).toHaveLength(2);
  });

  it('retries run out after 3 retries by default: 4 attempts, then a retryable InfraError naming the last status', async () => {
    fake.enqueue(httpError(500), httpError(502), httpError(503), httpError(429, 'Rate limit reached for gpt-4.1'), text('too late'));
    const err = await rejection(makeClient().generate(request(HELLO)));
    expect(err.name).toBe('InfraError');
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/^LLM call to gpt-4\.1-2025-04-14 failed after 4 attempts: HTTP 429: Rate limit reached for gpt-4\.1/);
    expect(fake.requests).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
  });

  it('num_retries in llmArgs sets the retry count of that call, as litellm does', async () => {
    fake.enqueue(httpError(500), httpError(500), text('ok'));
    const err = await rejection(makeClient().generate(request(HELLO, { llmArgs: { num_retries: 1 } })));
    expect(err.message).toContain('after 2 attempts');
    expect(fake.requests).toHaveLength(2);
  });

  it('a refused connection is retried and reported as a retryable network error', async () => {
    const gone = await startFakeOpenAI();
    await gone.close();
    const err = await rejection(makeClient({ baseURL: gone.baseURL, maxRetries: 2 }).generate(request(HELLO)));
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('network error');
    expect(sleeps).toHaveLength(2);
  });

  it('the API key never appears in thrown errors, even when the provider echoes it back', async () => {
    const echo = (status: number) => () => httpError(status, `Incorrect API key provided: ${API_KEY}`);
    fake.setHandler(echo(500));
    const exhausted = await rejection(makeClient({ maxRetries: 1 }).generate(request(HELLO)));
    fake.setHandler(echo(401));
    const rejected = await rejection(makeClient().generate(request(HELLO)));
    fake.setHandler(() => ({ kind: 'raw', status: 200, body: `{"error": "bad token Bearer ${API_KEY}"}` }));
    const malformed = await rejection(makeClient({ maxRetries: 0 }).generate(request(HELLO)));
    expect(exhausted.message).toContain('Incorrect API key provided: [redacted]');
    expect(rejected.message).toContain('Incorrect API key provided: [redacted]');
    for (const err of [exhausted, rejected, malformed]) {
      const everything = [err.message, String(err), err.stack ?? '', inspect(err, { depth: 10 })].join('\n');
      expect(everything).not.toContain(API_KEY);
      expect(everything).not.toContain('SECRET');
    }
  });
});
