// Where the agent's retrieval tools plug in: one factory per reference tool name (KB_search, KB_search_bm25,
// KB_search_dense, grep, shell), building the tool for a configuration's settings and the knowledge base
// (reference: retrieval_mixins.py). A configuration runs only when every tool it names has a factory that
// supports it. The synchronous retrievers are in: BM25 `KB_search` without a reranker, and `grep`. Dense
// search, the LLM reranker and the shell await model calls or a shell and wait for asynchronous tool calls.
import type { KnowledgeDocument } from '../../src/core/environment/domain.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import type { ToolSpec } from '../../src/core/environment/toolkit.ts';
import { pyTypeName } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import { RETRIEVAL_CONFIGS, RetrievalConfigKwargsSchema, resolveRetrievalConfig } from '../../src/core/knowledge/configs.ts';
import type { RetrievalConfig, RetrievalConfigName } from '../../src/core/knowledge/configs.ts';
import { createBm25Index } from '../../src/core/knowledge/bm25.ts';
import type { Bm25Index } from '../../src/core/knowledge/bm25.ts';
import { createGrepIndex } from '../../src/core/knowledge/grep.ts';
import type { GrepIndex } from '../../src/core/knowledge/grep.ts';
import { documentLookup, inIndexOrder } from '../../src/core/knowledge/documents.ts';
import { formatKbSearchResults } from '../../src/core/knowledge/format.ts';
import { runGrep } from '../../src/core/knowledge/kb-search.ts';
import type { KnowledgeDb } from './data_model.ts';
import type { RetrievalVariant } from './retrieval.ts';

type Kwargs = Readonly<Record<string, PyValue>>;

export interface RetrievalToolFactory {
  /** Whether this build can give the configuration this tool. */
  readonly supports: (config: RetrievalConfig) => boolean;
  readonly build: (config: RetrievalConfig, documents: readonly KnowledgeDocument[]) => ToolSpec<KnowledgeDb>;
}

/** Indexes are built once per knowledge base (per process or isolate) and shared by every episode. */
interface KnowledgeIndexes {
  readonly lookup: ReadonlyMap<string, KnowledgeDocument>;
  readonly bm25: () => Bm25Index;
  readonly grep: (caseSensitive: boolean) => GrepIndex;
}

const indexCache = new WeakMap<readonly KnowledgeDocument[], KnowledgeIndexes>();

const indexesOf = (documents: readonly KnowledgeDocument[]): KnowledgeIndexes => {
  const cached = indexCache.get(documents);
  if (cached) return cached;
  const ordered = inIndexOrder(documents);
  let bm25: Bm25Index | null = null;
  const greps = new Map<boolean, GrepIndex>();
  const indexes: KnowledgeIndexes = {
    lookup: documentLookup(ordered),
    bm25: () => (bm25 ??= createBm25Index(ordered)),
    grep: (caseSensitive) => {
      let index = greps.get(caseSensitive);
      if (!index) greps.set(caseSensitive, (index = createGrepIndex(ordered, { caseSensitive })));
      return index;
    },
  };
  indexCache.set(documents, indexes);
  return indexes;
};

/** The text argument a retriever reads; anything else fails as the reference's `.strip()` / `re` calls do. */
const textArg = (value: PyValue | undefined, failure: (type: string) => string): string => {
  if (typeof value !== 'string') throw new ToolError(failure(pyTypeName(value ?? null)));
  return value;
};

/** Milliseconds for the timing line the reference appends to each KB_search result. */
const nowMs = (): number => performance.now();

const KB_SEARCH: RetrievalToolFactory = {
  supports: (config) => config.kbSearch?.kind === 'bm25' && config.kbSearch.rerankMinScore === null,
  build: (config, documents) => {
    const { lookup, bm25 } = indexesOf(documents);
    const topK = config.kbSearch!.topK;
    return {
      type: 'read',
      description: 'Search the knowledge base for relevant documents.',
      parameters: {
        properties: { query: { description: 'The search query to find relevant documents', title: 'Query', type: 'string' } },
        required: ['query'],
        title: 'parameters',
        type: 'object',
      },
      run: (_db, { query }) => {
        const text = textArg(query, (type) => `'${type}' object has no attribute 'strip'`);
        const start = nowMs();
        const results = bm25().search(text, topK);
        const retrievalMs = nowMs() - start;
        return formatKbSearchResults(results, lookup, { inputPreprocessingMs: 0, retrievalMs, postprocessingMs: 0 });
      },
    };
  },
};

const GREP: RetrievalToolFactory = {
  supports: (config) => config.grep !== null,
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
      run: (_db, { pattern }) => {
        const text = textArg(pattern, () => 'first argument must be string or compiled pattern');
        return runGrep(grep(caseSensitive), lookup, text, topK);
      },
    };
  },
};

export const RETRIEVAL_TOOL_FACTORIES: Readonly<Record<string, RetrievalToolFactory>> = { KB_search: KB_SEARCH, grep: GREP };

const retrievalConfig = (variant: RetrievalVariant, kwargs: Kwargs): RetrievalConfig =>
  resolveRetrievalConfig(variant.name as RetrievalConfigName, RetrievalConfigKwargsSchema.parse(kwargs));

/** Whether this build can give the configuration the tool of that name. */
const supported = (name: string, config: RetrievalConfig): boolean =>
  Object.hasOwn(RETRIEVAL_TOOL_FACTORIES, name) && RETRIEVAL_TOOL_FACTORIES[name]!.supports(config);

/** The tools a configuration names that this build cannot give it. */
export const missingRetrievalTools = (variant: RetrievalVariant): string[] =>
  variant.tools.filter((name) => !supported(name, RETRIEVAL_CONFIGS[variant.name as RetrievalConfigName]));

/** The configuration's retrieval tools, in the reference's order (those this build supports). */
export const retrievalTools = (
  variant: RetrievalVariant,
  kwargs: Kwargs,
  documents: readonly KnowledgeDocument[],
): Record<string, ToolSpec<KnowledgeDb>> => {
  const config = retrievalConfig(variant, kwargs);
  return Object.fromEntries(
    variant.tools
      .filter((name) => supported(name, config))
      .map((name) => [name, RETRIEVAL_TOOL_FACTORIES[name]!.build(config, documents)]),
  );
};
