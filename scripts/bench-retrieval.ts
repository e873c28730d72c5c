// Retrieval benchmarks over the 698 banking_knowledge documents: p50 latency of one search per retriever
// (BM25, grep, dense through the AI SDK against a local fake embeddings endpoint with 3072-dimension vectors,
// the simulated shell) and the heap each index holds in an isolate. Queries are the parity fixture's.
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

const p50 = (samples: number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

const timed = async <T>(inputs: readonly T[], fn: (input: T) => unknown): Promise<number> => {
  const samples: number[] = [];
  for (const input of inputs) {
    const t = performance.now();
    await fn(input);
    samples.push(performance.now() - t);
  }
  return p50(samples);
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

  const shells = await held(() => Array.from({ length: SHELLS_FOR_MEMORY }, () => createShell(docs, { mode: 'read' })));
  const shell = createShell(docs, { mode: 'write' });
  const commands = Array.from({ length: 5 }, () => SHELL_COMMANDS).flat();
  lines.push(
    line('shell', await timed(commands, (c) => shell.run(c)), `per episode shell ${mb(shells.bytes / shells.value.length)} (file tree over the shared documents)`),
  );
  return lines;
};
