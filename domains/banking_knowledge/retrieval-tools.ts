// Where the agent's retrieval tools plug in: one factory per reference tool name (KB_search, KB_search_bm25,
// KB_search_dense, grep, shell), building the tool for a configuration's settings and the knowledge base. A
// configuration runs only when every tool it names has a factory here; none is registered yet.
import type { KnowledgeDocument } from '../../src/core/environment/domain.ts';
import type { ToolSpec } from '../../src/core/environment/toolkit.ts';
import type { PyValue } from '../../src/core/py/index.ts';
import type { KnowledgeDb } from './data_model.ts';
import type { RetrievalVariant } from './retrieval.ts';

/** Builds one tool for a configuration (its settings as `retrieval_config_kwargs` adjust them) and the knowledge base. */
export type RetrievalToolFactory = (
  variant: RetrievalVariant,
  kwargs: Readonly<Record<string, PyValue>>,
  documents: readonly KnowledgeDocument[],
) => ToolSpec<KnowledgeDb>;

export const RETRIEVAL_TOOL_FACTORIES: Readonly<Record<string, RetrievalToolFactory>> = {};

/** The tools a configuration names that have no factory. */
export const missingRetrievalTools = (variant: RetrievalVariant): string[] =>
  variant.tools.filter((name) => !Object.hasOwn(RETRIEVAL_TOOL_FACTORIES, name));

/** The configuration's retrieval tools, in the reference's order (those with a factory). */
export const retrievalTools = (
  variant: RetrievalVariant,
  kwargs: Readonly<Record<string, PyValue>>,
  documents: readonly KnowledgeDocument[],
): Record<string, ToolSpec<KnowledgeDb>> =>
  Object.fromEntries(
    variant.tools
      .filter((name) => Object.hasOwn(RETRIEVAL_TOOL_FACTORIES, name))
      .map((name) => [name, RETRIEVAL_TOOL_FACTORIES[name]!(variant, kwargs, documents)]),
  );
