// Retrieval benchmarks over the 698 banking_knowledge documents: p50 latency of one search per retriever
// (BM25, grep, dense through the AI SDK against a local fake embeddings endpoint with 3072-dimension vectors,
// the simulated shell) and the heap each index holds in an isolate; then p50 of one retrieval tool call per
// configuration, as an episode makes it (the environment's awaited hop, the fake endpoint's 64-dimension
// vectors, the reranker's ratings from a fake rater over local HTTP). Queries are the parity fixture's.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createBm25Index } from '../src/core/knowledge/bm25.ts';
import { createDenseIndex } from '../src/core/knowledge/dense.ts';
import { OPENAI_EMBEDDINGS } from '../src/core/knowledge/embedder.ts';
import { memoryEmbeddingStore } from '../src/core/knowledge/embedding-store.ts';
import { createGrepIndex } from '../src/core/knowledge/grep.ts';
import { createShell } from '../src/core/knowledge/shell.ts';
import { createAiSdkEmbedder } from '../src/core/llm/embedder.ts';
import { startFakeEmbeddings } from '../test/support/fake-embeddings.ts';
import { knowledgeDocuments } from '../test/support/knowledge.ts';
import type { RetrievalFixture } from '../test/support/knowledge.ts';
import { startFakeOpenAI } from '../test/support/fake-openai.ts';
import { isRerankRequest, rerankReply } from '../test/support/fake-reranker.ts';
import { loadDomain } from '../src/cli/data.ts';
import { episodeDomain } from '../src/core/environment/episode-domain.ts';
import { Environment } from '../src/core/environment/environment.ts';
import type { ToolServices } from '../src/core/environment/tool-services.ts';
import { createAiSdkClient } from '../src/core/llm/ai-sdk-client.ts';
import type { Embedder } from '../src/core/knowledge/embedder.ts';
import { resolveVariant } from '../domains/banking_knowledge/retrieval.ts';
import { RETRIEVAL_CONFIG_NAMES } from '../src/core/knowledge/configs.ts';
import { median } from './bench-quantile.ts';

const SHELL_COMMANDS = [
  'ls | head -n 20',
  'cat INDEX.md | grep -i savings',
  "grep -ril 'wire transfer' . | head -n 5",
  "grep -c -i 'annual fee' *.md | sort -t: -k2 -nr | head -n 3",
  'find . -name "*credit_cards*" | wc -l',
  "sed -n '1,20p' doc_credit_cards_gold_rewards_card_001.md",
  'wc -w doc_everyone_pay_sending_limits_001.md',
  "awk '/APR/ {n++} END {print n}' *.md",
];
const SHELLS_FOR_MEMORY = 20;

const gcHeap = (): number => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  // Vectors live in typed arrays, whose memory is counted outside the JS heap.
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};


const timed = async <T>(inputs: readonly T[], fn: (input: T) => unknown): Promise<number> => {
  const samples: number[] = [];
  for (const input of inputs) {
    const t = performance.now();
    await fn(input);
    samples.push(performance.now() - t);
  }
  return median(samples);
};

/** The heap a built value keeps alive, and the value. */
const held = async <T>(build: () => T | Promise<T>): Promise<{ value: T; bytes: number }> => {
  const before = gcHeap();
  const value = await build();
  return { value, bytes: gcHeap() - before };
};

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const line = (name: string, latency: number, memory: string): string =>
  `retrieval ${name.padEnd(7)} p50 ${latency.toFixed(2)} ms per search | ${memory}`;

export const benchRetrieval = async (): Promise<string[]> => {
  const docs = await knowledgeDocuments();
  const fixture = JSON.parse(
    await readFile(path.join(import.meta.dirname, '../test/fixtures/knowledge-retrieval.json'), 'utf8'),
  ) as RetrievalFixture;
  const queries = fixture.bm25.map((c) => c.query).filter((q) => q.trim() !== '');
  const patterns = fixture.grep.map((c) => c.pattern);
  const lines: string[] = [];

  const bm25 = await held(() => createBm25Index(docs));
  lines.push(line('bm25', await timed(queries, (q) => bm25.value.search(q)), `index ${mb(bm25.bytes)}`));

  const grep = await held(() => createGrepIndex(docs));
  lines.push(line('grep', await timed(patterns, (p) => grep.value.search(p)), `index ${mb(grep.bytes)} (searches the shared documents)`));

  const fake = await startFakeEmbeddings({ dimension: 3072 });
  try {
    const embedder = createAiSdkEmbedder({ spec: OPENAI_EMBEDDINGS, baseURL: fake.baseURL, apiKey: 'bench' });
    const dense = await held(() => createDenseIndex(docs, embedder, memoryEmbeddingStore()));
    const embedMs = await timed(queries, (q) => dense.value.embedQuery(q));
    const vectors = await Promise.all(queries.map((q) => dense.value.embedQuery(q)));
    const rankMs = await timed(vectors, (v) => dense.value.rank(v));
    lines.push(
      line('dense', embedMs + rankMs, `index ${mb(dense.bytes)} (3072 dims, with its embedding store) | ` +
        `query embedding over local HTTP ${embedMs.toFixed(2)} ms + cosine ranking ${rankMs.toFixed(2)} ms`),
    );
  } finally {
    await fake.close();
  }

  // A shell opens its file tree on its first command.
  const shells = await held(async () => {
    const opened = Array.from({ length: SHELLS_FOR_MEMORY }, () => createShell(docs, { mode: 'read' }));
    await Promise.all(opened.map((shell) => shell.run('true')));
    return opened;
  });
  const shell = createShell(docs, { mode: 'write' });
  const commands = Array.from({ length: 5 }, () => SHELL_COMMANDS).flat();
  lines.push(
    line('shell', await timed(commands, (c) => shell.run(c)), `per episode shell ${mb(shells.bytes / shells.value.length)} (file tree over the shared documents)`),
  );
  return lines;
};

const CALLS_PER_TOOL = 10;

/** p50 of one retrieval tool call per configuration, each configuration's tools called in turn. */
export const benchRetrievalConfigs = async (): Promise<string[]> => {
  const { domain, data } = await loadDomain('banking_knowledge');
  const fixture = JSON.parse(
    await readFile(path.join(import.meta.dirname, '../test/fixtures/knowledge-retrieval.json'), 'utf8'),
  ) as RetrievalFixture;
  const queries = fixture.bm25.map((c) => c.query).filter((q) => q.trim() !== '').slice(0, CALLS_PER_TOOL);
  const patterns = fixture.grep.map((c) => c.pattern).slice(0, CALLS_PER_TOOL);
  // Query vectors are cached per index, as the reference caches them: each configuration's queries are its own.
  let config = '';
  const query = (i: number) => ({ query: `${queries[i]!} ${config}` });
  const argsOf: Record<string, (i: number) => Record<string, string>> = {
    KB_search: query,
    KB_search_bm25: query,
    KB_search_dense: query,
    grep: (i) => ({ pattern: patterns[i]! }),
    shell: (i) => ({ command: SHELL_COMMANDS[i % SHELL_COMMANDS.length]! }),
  };
  const fake = await startFakeOpenAI();
  fake.setHandler((request) => {
    if (isRerankRequest(request)) return rerankReply(request);
    throw new Error('only the reranker calls a model here');
  });
  const embedders = new Map<string, Embedder>();
  const services: ToolServices = {
    embedder: (spec) => {
      if (!embedders.has(spec.model)) embedders.set(spec.model, createAiSdkEmbedder({ spec, baseURL: fake.baseURL, apiKey: 'bench' }));
      return embedders.get(spec.model)!;
    },
    embeddingStore: memoryEmbeddingStore(),
    model: createAiSdkClient({ baseURL: fake.baseURL, apiKey: 'bench' }),
    nowMs: () => performance.now(),
  };
  const lines: string[] = [];
  try {
    for (const name of RETRIEVAL_CONFIG_NAMES) {
      config = name;
      const { tools } = resolveVariant(name);
      if (tools.length === 0) {
        lines.push(`retrieval config ${name.padEnd(31)} no retrieval tools`);
        continue;
      }
      const view = episodeDomain(domain, data, data.tasks[0]!, { retrievalConfig: name, retrievalConfigKwargs: null });
      const env = new Environment(view.domain, view.data, { now: () => new Date().toISOString(), services });
      // The first call of each tool builds its index (dense: embeds the documents); it is left out.
      for (const tool of tools) {
        const call = { id: 'warm', name: tool, arguments: argsOf[tool]!(0), requestor: 'assistant' as const };
        await env.respond(call);
      }
      const calls = tools.flatMap((tool) => Array.from({ length: CALLS_PER_TOOL }, (_, i) => ({ id: `c${i}`, name: tool, arguments: argsOf[tool]!(i), requestor: 'assistant' as const })));
      const latency = await timed(calls, (call) => env.respond(call));
      lines.push(`retrieval config ${name.padEnd(31)} p50 ${latency.toFixed(2)} ms per tool call (${tools.join(', ')})`);
    }
  } finally {
    await fake.close();
  }
  return lines;
};
