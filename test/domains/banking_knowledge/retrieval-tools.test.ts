// The retrieval tools of the banking_knowledge configurations against the reference's environment: the agent's
// tool list and the retrieval tools' schemas, and answers through the environment as a live call makes them
// (test/fixtures/banking-retrieval-tools.json: BM25 and grep; banking-awaited-tools.json: dense search on the fake
// embeddings endpoint, the reranker on the fake rater, KB_search_bm25 / KB_search_dense with k, and the shell,
// whose reference answers came from GNU tools in its sandbox directory). KB_search texts end with a timing line
// whose figures are the clock's; the text before it is compared.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { toolSchemas } from '../../../src/core/environment/toolkit.ts';
import { episodeDomain } from '../../../src/core/environment/episode-domain.ts';
import { Environment } from '../../../src/core/environment/environment.ts';
import { isoTimestamp } from '../../../src/core/orchestrator/clock.ts';
import { parsePyJson, sha256Hex } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { bankingKnowledgeDomain } from '../../../domains/banking_knowledge/environment.ts';
import { loaded, steppingClock } from '../../support/domains.ts';
import { startFakeOpenAI } from '../../support/fake-openai.ts';
import { isRerankRequest, rerankReply } from '../../support/fake-reranker.ts';
import { createAiSdkEmbedder } from '../../../src/core/llm/embedder.ts';
import { createAiSdkClient } from '../../../src/core/llm/ai-sdk-client.ts';
import { memoryEmbeddingStore } from '../../../src/core/knowledge/embedding-store.ts';
import type { Embedder } from '../../../src/core/knowledge/embedder.ts';
import type { ToolServices } from '../../../src/core/environment/tool-services.ts';
import { InfraError } from '../../../src/core/llm/types.ts';

interface Fixture {
  configs: Record<string, { tool_names: string[]; retrieval_schemas: unknown[] }>;
  calls: { config: string; name: string; arguments: Record<string, PyValue>; error: boolean; timing_line: boolean; sha256: string }[];
}

// Python JSON, so that a float argument (`k: 2.0`) stays a float.
const read = (name: string) => parsePyJson(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8')) as unknown as Fixture;
const [offline, awaited] = [read('banking-retrieval-tools.json'), read('banking-awaited-tools.json')];
const fixture: Fixture = { configs: { ...offline.configs, ...awaited.configs }, calls: [...offline.calls, ...awaited.calls] };

const fake = await startFakeOpenAI();
fake.setHandler((request) => {
  if (isRerankRequest(request)) return rerankReply(request);
  throw new Error('only the reranker calls a model here');
});
afterAll(() => fake.close());
const embedders = new Map<string, Embedder>();
const services: ToolServices = {
  embedder: (spec) => {
    if (!embedders.has(spec.model)) embedders.set(spec.model, createAiSdkEmbedder({ spec, baseURL: fake.baseURL }));
    return embedders.get(spec.model)!;
  },
  embeddingStore: memoryEmbeddingStore(),
  model: createAiSdkClient({ baseURL: fake.baseURL }),
  nowMs: () => performance.now(),
};
const RETRIEVAL_TOOLS = new Set(['KB_search', 'grep', 'KB_search_bm25', 'KB_search_dense', 'shell']);
const { domain, data } = await loaded('banking_knowledge');
const TIMING_LINE = /\n\n\[Timing: retrieval=\d+ms(, reranking=\d+ms)?, total=\d+ms\]$/;

const view = (config: string) => episodeDomain(domain, data, data.tasks[0]!, { retrievalConfig: config, retrievalConfigKwargs: null });

describe('banking_knowledge retrieval tools', () => {
  for (const [config, expected] of Object.entries(fixture.configs)) {
    it(`${config}: the agent's tools and the retrieval tools' schemas are the reference's`, () => {
      const schemas = toolSchemas(view(config).domain.agentToolkit);
      expect(schemas.map((s) => s.function.name)).toEqual(expected.tool_names);
      const retrieval = schemas.filter((s) => RETRIEVAL_TOOLS.has(s.function.name));
      expect(JSON.stringify(retrieval)).toBe(JSON.stringify(expected.retrieval_schemas));
    });
  }

  // Calls of one configuration run in order on one environment: a write-mode shell sees its earlier changes.
  const environments = new Map<string, Environment>();
  fixture.calls.forEach((c, i) => {
    it(`${c.config}: ${c.name}(${JSON.stringify(c.arguments)}) answers as the reference`, async () => {
      let env = environments.get(c.config);
      if (!env) {
        const episode = view(c.config);
        const clock = steppingClock();
        env = new Environment(episode.domain, episode.data, { now: () => isoTimestamp(clock.nowMs()), services });
        environments.set(c.config, env);
      }
      const call = { id: `c${i}`, name: c.name, arguments: c.arguments, requestor: 'assistant' as const };
      const message = await env.respond(call);
      const content = message.content ?? '';
      expect(message.error, content).toBe(c.error);
      expect(TIMING_LINE.test(content)).toBe(c.timing_line);
      expect(sha256Hex(content.replace(TIMING_LINE, '')), content.slice(0, 400)).toBe(c.sha256);
    });
  });

  it('every configuration runs; an unknown name is refused with the reference\'s message', () => {
    for (const name of Object.keys(data.policies!)) expect(bankingKnowledgeDomain.episodeAssembly!.refusal(name, null)).toBeNull();
    expect(bankingKnowledgeDomain.episodeAssembly!.refusal('bm2', null)).toMatch(/^Unknown retrieval variant: 'bm2'\. Available: \['alltools', /);
  });

  it('a tool that awaits runs only as a live call: a replay or env function call of it fails instead of answering', () => {
    const episode = view('alltools');
    const env = new Environment(episode.domain, episode.data, { now: () => '2026-01-01T00:00:00', services });
    const message = env.getResponse({ id: 'x', name: 'KB_search_bm25', arguments: { query: 'fee' }, requestor: 'assistant' });
    expect(message).toMatchObject({ error: true, content: 'Error: This tool awaits: it runs only as a live call' });
  });

  it('a provider failing after its retries fails the call as an infrastructure error, never as an answer the agent reads', async () => {
    const episode = view('openai_embeddings');
    const down: ToolServices = {
      ...services,
      embedder: (spec) => ({ spec, endpoint: 'down.test', embed: () => Promise.reject(new InfraError('embedding call failed after 3 attempts: HTTP 503', { retryable: true })) }),
    };
    const env = new Environment(episode.domain, episode.data, { now: () => '2026-01-01T00:00:00', services: down });
    const call = { id: 'x', name: 'KB_search', arguments: { query: 'fee' }, requestor: 'assistant' as const };
    await expect(env.respond(call)).rejects.toBeInstanceOf(InfraError);
  });
});
