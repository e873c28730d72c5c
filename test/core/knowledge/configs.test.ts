// The retrieval configurations against the reference's registry (test/fixtures/knowledge-configs.json).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRIEVAL_CONFIG,
  RETRIEVAL_CONFIG_NAMES,
  RetrievalConfigKwargsSchema,
  RetrievalConfigNameSchema,
  resolveRetrievalConfig,
} from '../../../src/core/knowledge/configs.ts';
import type { KbSearchSpec, RetrievalConfig } from '../../../src/core/knowledge/configs.ts';

interface ReferencePipeline {
  type: 'bm25' | 'embedding';
  embedder_type: string | null;
  embedder_model: string | null;
  top_k: number;
  reranker: boolean;
  reranker_min_score: number;
}
interface ReferenceVariant {
  name: string;
  kb_search: ReferencePipeline | null;
  kb_search_bm25: ReferencePipeline | null;
  kb_search_dense: ReferencePipeline | null;
  grep: { top_k: number; case_sensitive: boolean } | null;
  shell: { allow_writes: boolean; file_format: string } | null;
  supports_top_k: boolean;
}
const fixture = JSON.parse(await readFile(path.join(import.meta.dirname, '../../fixtures/knowledge-configs.json'), 'utf8')) as {
  default: string;
  names: string[];
  plain: ReferenceVariant[];
  kwargs: Record<string, unknown>;
  overridden: ReferenceVariant[];
  alias: ReferenceVariant;
};

/** The reference's minimum score matters only where it reranks. */
const normalized = (variant: ReferenceVariant): ReferenceVariant => {
  const pipeline = (p: ReferencePipeline | null) => p && { ...p, reranker_min_score: p.reranker ? p.reranker_min_score : 0 };
  return { ...variant, kb_search: pipeline(variant.kb_search), kb_search_bm25: pipeline(variant.kb_search_bm25), kb_search_dense: pipeline(variant.kb_search_dense) };
};

/** What a configuration sets up, in the reference's terms. */
const asReference = (config: RetrievalConfig): ReferenceVariant => {
  const pipeline = (spec: KbSearchSpec | null): ReferencePipeline | null =>
    spec && {
      type: spec.kind === 'bm25' ? 'bm25' : 'embedding',
      embedder_type: spec.embedder?.provider ?? null,
      embedder_model: spec.embedder?.model ?? null,
      top_k: spec.topK,
      reranker: spec.rerankMinScore !== null,
      reranker_min_score: spec.rerankMinScore ?? 0,
    };
  return {
    name: config.name,
    kb_search: pipeline(config.kbSearch),
    kb_search_bm25: pipeline(config.kbSearchBm25),
    kb_search_dense: pipeline(config.kbSearchDense),
    grep: config.grep && { top_k: config.grep.topK, case_sensitive: config.grep.caseSensitive },
    shell: config.shell && { allow_writes: config.shell.mode === 'write', file_format: config.shell.format },
    supports_top_k: config.supportsTopK,
  };
};

describe('retrieval configurations', () => {
  it('has the reference names and default', () => {
    expect([...RETRIEVAL_CONFIG_NAMES]).toEqual(fixture.names);
    expect(DEFAULT_RETRIEVAL_CONFIG).toBe(fixture.default);
  });

  it('sets up what the reference sets up for every configuration', () => {
    for (const [i, name] of RETRIEVAL_CONFIG_NAMES.entries()) {
      expect(asReference(resolveRetrievalConfig(name)), name).toEqual(normalized(fixture.plain[i]!));
    }
  });

  it('applies retrieval_config_kwargs as the reference does', () => {
    const kwargs = RetrievalConfigKwargsSchema.parse(fixture.kwargs);
    for (const [i, name] of RETRIEVAL_CONFIG_NAMES.entries()) {
      expect(asReference(resolveRetrievalConfig(name, kwargs)), name).toEqual(normalized(fixture.overridden[i]!));
    }
  });

  it('accepts the AllTools alias and refuses unknown names and kwargs', () => {
    expect(asReference(resolveRetrievalConfig(RetrievalConfigNameSchema.parse('AllTools')))).toEqual(normalized(fixture.alias));
    expect(RetrievalConfigNameSchema.safeParse('bm25_only').success).toBe(false);
    expect(RetrievalConfigKwargsSchema.safeParse({ top_k: 0 }).success).toBe(false);
    expect(RetrievalConfigKwargsSchema.safeParse({ topk: 3 }).success).toBe(false);
  });
});
