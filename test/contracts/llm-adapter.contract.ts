// The contract every provider adapter keeps, run by each adapter's test against its own scripted server: the
// same conversation and the same assertions (a text reply, a tool call and its result sent back, the key on
// the wire, retries of a server error, a refusal that fails at once without showing the key, litellm's
// `num_retries`). A case may be skipped only with the reason given.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InfraError } from '../../src/core/llm/types.ts';
import type { LlmClient, LlmRequest } from '../../src/core/llm/types.ts';
import { pyFloat } from '../../src/core/py/index.ts';
import type { NativeReply } from '../support/fake-native.ts';

/** What the scripted server received: the key on the provider's own header, and the conversation as `role: text` lines. */
export interface ReceivedCall {
  readonly key: string | undefined;
  readonly transcript: readonly string[];
}

/** An adapter against its scripted server. */
export interface ContractServer {
  /** A model name the registry routes to the adapter. */
  readonly model: string;
  /** The adapter's client against the server, with `apiKey` and no wait between attempts. */
  client(apiKey: string, options?: { maxRetries?: number }): LlmClient;
  /** The replies to the next requests, in order. */
  answer(...replies: NativeReply[]): void;
  received(): readonly ReceivedCall[];
  close(): Promise<void>;
}

export type ContractCase = 'text' | 'tool call' | 'tool result' | 'retry' | 'refusal' | 'num_retries';

const KEY = 'sk-contract-key-5b7d31';
/** The last line of a transcript that carries a tool result, in any provider's wire format. */
const TOOL_RESULT = /\[(tool_result|functionResponse|function_call_output)\]$/;

const request = (model: string, extra: Partial<LlmRequest> = {}): LlmRequest => ({
  model,
  messages: [
    { role: 'system', content: 'You are a careful agent.' },
    { role: 'user', content: 'Please list the users.' },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_users',
        description: 'Get the users.',
        parameters: { title: 'parameters', type: 'object', properties: { limit: { type: 'integer' } }, required: [] },
      },
    },
  ],
  toolChoice: 'auto',
  llmArgs: { temperature: pyFloat(0), max_tokens: 256 },
  ...extra,
});

export const runContract = ({ make, skip = {} }: { make: () => Promise<ContractServer>; skip?: Partial<Record<ContractCase, string>> }): void => {
  let server: ContractServer;
  beforeEach(async () => {
    server = await make();
  });
  afterEach(async () => server.close());

  const test = (name: ContractCase, title: string, body: () => Promise<void>): void => {
    const reason = skip[name];
    if (reason !== undefined) it.skip(`${title} (skipped: ${reason})`, body);
    else it(title, body);
  };

  describe('the adapter contract', () => {
    test('text', 'a text reply: its content, no tool calls, its usage and raw body; the key is sent on the provider header', async () => {
      server.answer({ kind: 'text', text: 'There are two users.' });
      const response = await server.client(KEY).generate(request(server.model));
      expect(response.content).toBe('There are two users.');
      expect(response.toolCalls).toEqual([]);
      expect(response.usage!.prompt_tokens).toBeGreaterThan(0);
      expect(response.usage!.completion_tokens).toBeGreaterThan(0);
      expect(response.rawData).toBeTypeOf('object');
      expect(response.generationTimeSeconds).toBeGreaterThanOrEqual(0);
      expect(server.received().map((r) => r.key)).toEqual([KEY]);
      expect(server.received()[0]!.transcript.at(-1)).toMatch(/Please list the users\.$/);
    });

    test('tool call', 'a tool call: its id, name and JSON arguments', async () => {
      server.answer({ kind: 'tool', name: 'get_users', input: { limit: 2 } });
      const response = await server.client(KEY).generate(request(server.model));
      expect(response.toolCalls).toHaveLength(1);
      const [call] = response.toolCalls;
      expect(call!.id).toMatch(/.+/);
      expect(call!.name).toBe('get_users');
      expect(JSON.parse(call!.arguments)).toEqual({ limit: 2 });
      expect(response.content).toBeNull();
    });

    test('tool result', "the tool call and its result go back on the next request, and the model's answer comes back", async () => {
      server.answer({ kind: 'tool', name: 'get_users', input: { limit: 2 } }, { kind: 'text', text: 'Two users.' });
      const client = server.client(KEY);
      const first = await client.generate(request(server.model));
      const call = first.toolCalls[0]!;
      const second = await client.generate(
        request(server.model, {
          messages: [
            ...request(server.model).messages,
            { role: 'assistant', content: null, tool_calls: [{ id: call.id, name: call.name, arguments: { limit: 2 } }], ...(first.providerState ? { provider_state: first.providerState } : {}) },
            { role: 'tool', content: '[{"user_id": "user_1"}, {"user_id": "user_2"}]', tool_call_id: call.id },
          ],
        }),
      );
      expect(second.content).toBe('Two users.');
      expect(server.received()[1]!.transcript.at(-1)).toMatch(TOOL_RESULT);
    });

    test('retry', 'a server error is retried', async () => {
      server.answer({ kind: 'error', status: 503, message: 'overloaded' }, { kind: 'text', text: 'Back.' });
      expect((await server.client(KEY).generate(request(server.model))).content).toBe('Back.');
      expect(server.received()).toHaveLength(2);
    });

    test('refusal', 'a 401 fails at once, as no retry fixes it, and its error never shows the key', async () => {
      server.answer({ kind: 'error', status: 401, message: `invalid key ${KEY}` });
      const error = (await server.client(KEY).generate(request(server.model)).catch((e: unknown) => e)) as InfraError;
      expect(error).toBeInstanceOf(InfraError);
      expect(error.retryable).toBe(false);
      expect(error.message.startsWith(`LLM call to ${server.model} failed after 1 attempt: HTTP 401`)).toBe(true);
      expect(`${error.message} ${String(error.cause)}`).not.toContain(KEY);
      expect(server.received()).toHaveLength(1);
    });

    test('num_retries', "litellm's num_retries bounds the attempts", async () => {
      server.answer({ kind: 'error', status: 503, message: 'overloaded' }, { kind: 'error', status: 503, message: 'overloaded' });
      const error = (await server.client(KEY, { maxRetries: 3 }).generate(request(server.model, { llmArgs: { num_retries: 1 } })).catch((e: unknown) => e)) as InfraError;
      expect(error).toBeInstanceOf(InfraError);
      expect(error.retryable).toBe(true);
      expect(server.received()).toHaveLength(2);
    });
  });
};
