// Where the agent's retrieval tools plug in: one factory per reference tool name (KB_search, KB_search_bm25,
// KB_search_dense, grep, shell), building the tool for a configuration's settings and the knowledge base
// (reference: retrieval_mixins.py). grep runs at once; the others await (an embeddings endpoint, the reranker's
// model, the shell) and do that work in `prepare`, with the host's tool services.
import type { KnowledgeDocument } from '../../src/core/knowledge/documents.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import type { ToolSpec } from '../../src/core/environment/toolkit.ts';
import type { ToolParameters } from '../../src/core/llm/tool-schema.ts';
import type { ToolServices } from '../../src/core/environment/tool-services.ts';
import { pyTypeName } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { RetrievalConfigKwargsSchema, resolveRetrievalConfig } from '../../src/core/knowledge/configs.ts';
import type { KbSearchSpec, RetrievalConfig } from '../../src/core/knowledge/configs.ts';
import { createBm25Index } from '../../src/core/knowledge/bm25.ts';
import type { Bm25Index } from '../../src/core/knowledge/bm25.ts';
import { createDenseIndex } from '../../src/core/knowledge/dense.ts';
import type { DenseIndex } from '../../src/core/knowledge/dense.ts';
import type { EmbedCall, Embedder } from '../../src/core/knowledge/embedder.ts';
import type { EmbeddingStore } from '../../src/core/knowledge/embedding-store.ts';
import { createGrepIndex } from '../../src/core/knowledge/grep.ts';
import type { GrepIndex } from '../../src/core/knowledge/grep.ts';
import { documentLookup, inIndexOrder } from '../../src/core/knowledge/documents.ts';
import { bm25Stages, denseStages, runGrep, runKbSearch } from '../../src/core/knowledge/kb-search.ts';
import type { SearchStages } from '../../src/core/knowledge/kb-search.ts';
import { rerankPointwise } from '../../src/core/knowledge/reranker.ts';
import { EMPTY_SHELL_STATE, createShell, formatShellResult } from '../../src/core/knowledge/shell.ts';
import type { KnowledgeShell, ShellState } from '../../src/core/knowledge/shell.ts';
import type { KbFileFormat } from '../../src/core/knowledge/kb-files.ts';
import type { KnowledgeDb } from './data_model.ts';
import type { RetrievalVariant } from './retrieval.ts';

type Kwargs = Readonly<Record<string, PyValue>>;

export interface RetrievalToolFactory {
  readonly build: (config: RetrievalConfig, documents: readonly KnowledgeDocument[]) => ToolSpec<KnowledgeDb>;
}

/** Indexes are built once per knowledge base (per process or isolate) and shared by every episode. */
interface KnowledgeIndexes {
  readonly ordered: readonly KnowledgeDocument[];
  readonly lookup: ReadonlyMap<string, KnowledgeDocument>;
  readonly bm25: () => Bm25Index;
  readonly grep: (caseSensitive: boolean) => GrepIndex;
  /** Per embedder: its vectors differ by model and, in a hosted service, by whose endpoint computed them. */
  readonly dense: (embedder: Embedder, store: EmbeddingStore, call?: EmbedCall) => Promise<DenseIndex>;
  /**
   * Runs `work` on a read-only shell. Commands cannot change a read-only shell's files and each runs afresh in
   * the knowledge-base directory, so idle shells are reused (building one costs more than most commands).
   */
  readonly withReadShell: <T>(format: KbFileFormat, work: (shell: KnowledgeShell) => Promise<T>) => Promise<T>;
}

/** Idle read-only shells kept per knowledge base and format. */
const IDLE_READ_SHELLS = 8;

const indexCache = new WeakMap<readonly KnowledgeDocument[], KnowledgeIndexes>();

const indexesOf = (documents: readonly KnowledgeDocument[]): KnowledgeIndexes => {
  const cached = indexCache.get(documents);
  if (cached) return cached;
  const ordered = inIndexOrder(documents);
  let bm25: Bm25Index | null = null;
  const greps = new Map<boolean, GrepIndex>();
  const denses = new WeakMap<Embedder, Promise<DenseIndex>>();
  const idleShells = new Map<KbFileFormat, KnowledgeShell[]>();
  const indexes: KnowledgeIndexes = {
    ordered,
    lookup: documentLookup(ordered),
    bm25: () => (bm25 ??= createBm25Index(ordered)),
    grep: (caseSensitive) => {
      let index = greps.get(caseSensitive);
      if (!index) greps.set(caseSensitive, (index = createGrepIndex(ordered, { caseSensitive })));
      return index;
    },
    dense: (embedder, store, call) => {
      let index = denses.get(embedder);
      if (!index) {
        index = createDenseIndex(ordered, embedder, store, call);
        denses.set(embedder, index);
        // A failed build (the endpoint down) is tried again by the next search.
        index.catch(() => denses.delete(embedder));
      }
      return index;
    },
    withReadShell: async (format, work) => {
      let idle = idleShells.get(format);
      if (!idle) idleShells.set(format, (idle = []));
      const shell = idle.pop() ?? createShell(ordered, { mode: 'read', format });
      try {
        return await work(shell);
      } finally {
        if (idle.length < IDLE_READ_SHELLS) idle.push(shell);
      }
    },
  };
  indexCache.set(documents, indexes);
  return indexes;
};

/** The text argument a retriever reads; anything else fails as the reference's string handling does. */
const textArg = (value: PyValue | undefined, failure: (type: string) => string): string => {
  if (typeof value !== 'string') throw new ToolError(failure(pyTypeName(value ?? null)));
  return value;
};

const queryArg = (query: PyValue | undefined): string => textArg(query, (type) => `'${type}' object has no attribute 'strip'`);

/** `results[:k]` of the reference: an int (a bool is one) or None; anything else cannot slice. */
const sliceArg = (k: PyValue | undefined): number | undefined => {
  if (k === null || k === undefined) return undefined;
  if (typeof k === 'boolean') return Number(k);
  if (typeof k === 'number' && Number.isInteger(k)) return k;
  throw new ToolError('slice indices must be integers or None or have an __index__ method');
};

const stagesFor = async (spec: KbSearchSpec, indexes: KnowledgeIndexes, services: ToolServices): Promise<SearchStages<unknown>> => {
  if (spec.kind === 'bm25') return bm25Stages(indexes.bm25(), spec.topK) as SearchStages<unknown>;
  // The tool call's services are its embeddings calls' meter and ledger.
  const index = await indexes.dense(services.embedder(spec.embedder!), services.embeddingStore, services);
  return denseStages(index, spec.topK, services) as SearchStages<unknown>;
};

/** One search of a KB_search pipeline, with its reranker when the configuration has one. */
const kbSearch = async (spec: KbSearchSpec, indexes: KnowledgeIndexes, services: ToolServices, query: string, k?: number): Promise<string> => {
  const minScore = spec.rerankMinScore;
  return runKbSearch(
    {
      stages: await stagesFor(spec, indexes, services),
      lookup: indexes.lookup,
      nowMs: services.nowMs,
      ...(minScore === null ? {} : { rerank: (q, results) => rerankPointwise(services.model, q, results, indexes.lookup, { minScore }) }),
    },
    query,
    k,
  );
};

const QUERY = { description: 'The search query to find relevant documents', title: 'Query', type: 'string' };
const QUERY_ONLY: ToolParameters = { properties: { query: QUERY }, required: ['query'], title: 'parameters', type: 'object' };
const QUERY_AND_K: ToolParameters = {
  properties: {
    query: { description: 'The search query to find relevant documents.', title: 'Query', type: 'string' },
    k: { default: 10, description: 'Maximum number of documents to return (default 10).', title: 'K', type: 'integer' },
  },
  required: ['query'],
  title: 'parameters',
  type: 'object',
};

/** A search tool: the search is the awaited work, and its text is the result. */
const searchTool = (
  description: string,
  parameters: ToolParameters,
  search: (args: Kwargs, services: ToolServices) => Promise<string>,
): ToolSpec<KnowledgeDb> => ({
  type: 'read',
  description,
  parameters,
  prepare: (_db, args, services) => search(args, services),
  run: (_db, _args, text) => text as string,
});

const KB_SEARCH: RetrievalToolFactory = {
  build: (config, documents) => {
    const indexes = indexesOf(documents);
    return searchTool('Search the knowledge base for relevant documents.', QUERY_ONLY, ({ query }, services) =>
      kbSearch(config.kbSearch!, indexes, services, queryArg(query)),
    );
  },
};

/** KB_search_bm25 / KB_search_dense of the all-tools configurations: the tool's `k` cuts the pipeline's results. */
const kbSearchWithK = (pick: (config: RetrievalConfig) => KbSearchSpec | null, description: string): RetrievalToolFactory => ({
  build: (config, documents) => {
    const indexes = indexesOf(documents);
    return searchTool(description, QUERY_AND_K, ({ query, k }, services) => {
      const text = queryArg(query);
      return kbSearch(pick(config)!, indexes, services, text, sliceArg(k));
    });
  },
});

const GREP: RetrievalToolFactory = {
  build: (config, documents) => {
    const { lookup, grep } = indexesOf(documents);
    const { topK, caseSensitive } = config.grep!;
    return {
      type: 'read',
      description:
        'Search for a regex pattern in all knowledge base documents.\n\nReturns documents ranked by number of matches, with full content.',
      parameters: {
        properties: {
          pattern: {
            description: "The regex pattern to search for (e.g., 'credit.*card', 'fee|charge')",
            title: 'Pattern',
            type: 'string',
          },
        },
        required: ['pattern'],
        title: 'parameters',
        type: 'object',
      },
      prepare: async (_db, { pattern }) => {
        const text = textArg(pattern, () => 'first argument must be string or compiled pattern');
        return runGrep(grep(caseSensitive), lookup, text, topK);
      },
      run: (_db, _args, text) => text as string,
    };
  },
};

/** What a shell command gave: the text the agent reads and, in write mode, the files as they now are. */
interface ShellOutcome {
  readonly text: string;
  readonly state: ShellState | null;
}

const SHELL: RetrievalToolFactory = {
  build: (config, documents) => {
    const { ordered, withReadShell } = indexesOf(documents);
    const { mode, format } = config.shell!;
    return {
      type: 'read',
      description:
        'Execute a shell command in the knowledge base directory.\n\n' +
        'Use standard Unix utilities to explore and search the knowledge base files.\n' +
        'Common commands: ls, cat, grep, head, tail, find, wc, awk, sed, etc.',
      parameters: {
        properties: {
          command: {
            description: 'The shell command to execute (e.g., "ls -la", "grep -r \'credit card\' .", "cat INDEX.txt")',
            title: 'Command',
            type: 'string',
          },
        },
        required: ['command'],
        title: 'parameters',
        type: 'object',
      },
      // Write-mode changes live in the toolkit's memory beside the DB, so they persist and resume with the episode.
      prepare: async (db, { command }): Promise<ShellOutcome> => {
        const text = textArg(command, (type) => `expected string or bytes-like object, got '${type}'`);
        if (mode === 'read') return { text: formatShellResult(text, await withReadShell(format, (shell) => shell.run(text))), state: null };
        const saved = db.toolkit_memory.shell_state;
        const shell = createShell(ordered, { mode, format, state: saved === undefined ? EMPTY_SHELL_STATE : (JSON.parse(saved) as ShellState) });
        const result = await shell.run(text);
        return { text: formatShellResult(text, result), state: shell.state() };
      },
      run: (db, _args, prepared) => {
        const { text, state } = prepared as ShellOutcome;
        if (state !== null) db.toolkit_memory.shell_state = JSON.stringify(state);
        return text;
      },
    };
  },
};

export const RETRIEVAL_TOOL_FACTORIES: Readonly<Record<string, RetrievalToolFactory>> = {
  KB_search: KB_SEARCH,
  KB_search_bm25: kbSearchWithK((config) => config.kbSearchBm25, 'Search the knowledge base using BM25 sparse retrieval.'),
  KB_search_dense: kbSearchWithK((config) => config.kbSearchDense, 'Search the knowledge base using dense embedding retrieval.'),
  grep: GREP,
  shell: SHELL,
};

const retrievalConfig = (variant: RetrievalVariant, kwargs: Kwargs): RetrievalConfig =>
  resolveRetrievalConfig(variant.name, RetrievalConfigKwargsSchema.parse(kwargs));

/** The configuration's retrieval tools, in the reference's order. */
export const retrievalTools = (
  variant: RetrievalVariant,
  kwargs: Kwargs,
  documents: readonly KnowledgeDocument[],
): Record<string, ToolSpec<KnowledgeDb>> => {
  const config = retrievalConfig(variant, kwargs);
  return Object.fromEntries(variant.tools.map((name) => [name, RETRIEVAL_TOOL_FACTORIES[name]!.build(config, documents)]));
};
