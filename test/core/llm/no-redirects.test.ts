// No outbound call follows a redirect: every client (OpenAI-compatible, agent endpoint, Anthropic, Google,
// embeddings) pointed at a server answering 307 or 302 fails with an infrastructure error naming the status and
// the Location, makes one call only (no retry), and never reaches the address redirected to, so its key or
// sealed headers never leave for another origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAiSdkClient } from '../../../src/core/llm/ai-sdk-client.ts';
import { createAiSdkEmbedder } from '../../../src/core/llm/embedder.ts';
import { endpointClient } from '../../../src/core/llm/endpoint-client.ts';
import { createNativeClient } from '../../../src/core/llm/native-client.ts';
import { isInfraError } from '../../../src/core/llm/types.ts';
import type { LlmRequest } from '../../../src/core/llm/types.ts';
import { OPENAI_EMBEDDINGS } from '../../../src/core/knowledge/embedder.ts';
import { startRedirectTrap } from '../../support/redirect-trap.ts';
import type { RedirectTrap } from '../../support/redirect-trap.ts';

const KEY = 'sk-redirect-test-key';
let trap: RedirectTrap;
beforeAll(async () => {
  trap = await startRedirectTrap();
});
afterAll(async () => trap.close());

const request = (model: string): LlmRequest => ({ model, messages: [{ role: 'user', content: 'hi' }], tools: null, toolChoice: null, llmArgs: {} });
const fast = { maxRetries: 3, sleep: async () => {} };

const calls: Record<string, (root: string) => Promise<unknown>> = {
  'OpenAI-compatible': (root) => createAiSdkClient({ baseURL: `${root}/v1`, apiKey: KEY, ...fast }).generate(request('gpt-4.1')),
  'agent endpoint': (root) => endpointClient(`${root}/agent/chat/completions`, { 'x-agent-key': KEY }).generate(request('my-agent')),
  Anthropic: (root) => createNativeClient({ provider: 'anthropic', apiKey: KEY, baseURL: `${root}/v1`, ...fast }).generate(request('anthropic/claude-sonnet-4-5')),
  Google: (root) => createNativeClient({ provider: 'google', apiKey: KEY, baseURL: `${root}/v1beta`, ...fast }).generate(request('gemini/gemini-2.5-flash')),
  embeddings: (root) => createAiSdkEmbedder({ spec: OPENAI_EMBEDDINGS, baseURL: `${root}/v1`, apiKey: KEY, sleep: async () => {} }).embed(['a passage']),
};

describe('outbound calls refuse redirects', () => {
  for (const [name, callAt] of Object.entries(calls)) {
    for (const status of [307, 302]) {
      it(`${name}: a ${status} is an infrastructure error naming it, not retried, and the target is never reached`, async () => {
        const before = trap.bounced.length;
        const error = await callAt(`${trap.bouncerURL}/${status}`).then(
          () => null,
          (e: unknown) => e,
        );
        expect(isInfraError(error)).toBe(true);
        expect((error as { retryable: boolean }).retryable).toBe(false);
        expect((error as Error).message).toContain(`HTTP ${status} redirect refused (Location ${trap.trapURL}/caught/${status}/`);
        expect((error as Error).message).not.toContain(KEY);
        expect(trap.bounced.length - before).toBe(1);
        expect(trap.trapped).toEqual([]);
      });
    }
  }
});
