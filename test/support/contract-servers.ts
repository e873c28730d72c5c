// The scripted servers of the adapter contract (test/contracts/llm-adapter.contract.ts): each adapter's client,
// built as the registry's factories build it, against the scripted server speaking its provider's wire format.
import { createNativeClient } from '../../src/core/llm/native-client.ts';
import { createOpenAIEndpointClient } from '../../src/core/llm/openai-endpoint.ts';
import type { AdapterName } from '../../src/core/llm/providers.ts';
import type { LlmClient } from '../../src/core/llm/types.ts';
import type { ContractServer } from '../contracts/llm-adapter.contract.ts';
import { startFakeNative } from './fake-native.ts';
import type { NativeProviderName, NativeReply } from './fake-native.ts';
import { httpError, startFakeOpenAI, text, toolCall } from './fake-openai.ts';

const noWait = async (): Promise<void> => {};
const bearer = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' ? value.replace(/^Bearer /, '') : undefined);

const NATIVE_MODELS: Record<NativeProviderName, string> = {
  anthropic: 'anthropic/claude-sonnet-4-5',
  google: 'gemini/gemini-2.5-flash',
  responses: 'openai/responses/gpt-5-mini',
};

/** The Anthropic, Google or OpenAI Responses adapter against the scripted native server. */
const nativeContractServer = async (provider: NativeProviderName): Promise<ContractServer> => {
  const fake = await startFakeNative();
  const queue: NativeReply[] = [];
  fake.setHandler(() => queue.shift() ?? { kind: 'error', status: 500, message: 'nothing scripted' });
  const client = (apiKey: string, options: { maxRetries?: number } = {}): LlmClient => {
    const settings = { apiKey, sleep: noWait, ...options };
    if (provider === 'responses') return createOpenAIEndpointClient({ baseURL: fake.responsesURL, ...settings });
    return createNativeClient({ provider, baseURL: provider === 'anthropic' ? fake.anthropicURL : fake.googleURL, ...settings });
  };
  const keyOf = (headers: (typeof fake.requests)[number]['headers']): string | undefined =>
    provider === 'anthropic' ? (headers['x-api-key'] as string | undefined) : provider === 'google' ? (headers['x-goog-api-key'] as string | undefined) : bearer(headers.authorization);
  return {
    model: NATIVE_MODELS[provider],
    client,
    answer: (...replies) => queue.push(...replies),
    received: () => fake.requests.map((r) => ({ key: keyOf(r.headers), transcript: r.transcript })),
    close: () => fake.close(),
  };
};

type ChatBodyMessage = { role: string; content: string | null };

/** The OpenAI-compatible Chat Completions adapter against the scripted OpenAI server. */
const openaiContractServer = async (): Promise<ContractServer> => {
  const fake = await startFakeOpenAI();
  return {
    model: 'gpt-4.1-mini',
    client: (apiKey, options = {}) => createOpenAIEndpointClient({ baseURL: fake.baseURL, apiKey, sleep: noWait, ...options }),
    answer: (...replies) =>
      fake.enqueue(
        ...replies.map((reply) =>
          reply.kind === 'text' ? text(reply.text) : reply.kind === 'tool' ? toolCall(reply.name, JSON.stringify(reply.input)) : httpError(reply.status, reply.message),
        ),
      ),
    received: () =>
      fake.requests.map((r) => ({
        key: bearer(r.headers.authorization),
        transcript: ((r.body as { messages: ChatBodyMessage[] }).messages ?? []).map((m) => `${m.role}: ${m.role === 'tool' ? '[tool_result]' : (m.content ?? '')}`),
      })),
    close: () => fake.close(),
  };
};

/** Each adapter of the registry and its scripted server: a new adapter does not typecheck without one. */
export const CONTRACT_SERVERS: Record<AdapterName, () => Promise<ContractServer>> = {
  openai: openaiContractServer,
  'openai.responses': () => nativeContractServer('responses'),
  anthropic: () => nativeContractServer('anthropic'),
  google: () => nativeContractServer('google'),
};
