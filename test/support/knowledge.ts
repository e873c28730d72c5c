// The banking_knowledge documents from the fetched data folder, in index order, for retrieval tests.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { dataDir } from '../../src/cli/data.ts';
import { KnowledgeDocumentSchema, inIndexOrder } from '../../src/core/knowledge/documents.ts';
import type { KnowledgeDocument } from '../../src/core/knowledge/documents.ts';

let loaded: Promise<KnowledgeDocument[]> | undefined;

export const knowledgeDocuments = (): Promise<KnowledgeDocument[]> => {
  loaded ??= (async () => {
    const dir = path.join(dataDir(), 'domains', 'banking_knowledge', 'documents');
    const files = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    const docs = await Promise.all(
      files.map(async (name) => KnowledgeDocumentSchema.parse(JSON.parse(await readFile(path.join(dir, name), 'utf8')))),
    );
    return inIndexOrder(docs);
  })();
  return loaded;
};

export interface RetrievalFixture {
  readonly bm25: { query: string; results: [string, number][] }[];
  readonly bm25_formatted: {
    query: string;
    top_k: number | null;
    timing: { input_preprocessing_ms: number; retrieval_ms: number; postprocessing_ms: number };
    output?: string;
    output_sha256?: string;
    output_length?: number;
    output_tail?: string | null;
  }[];
  readonly grep: { pattern: string; results: [string, number][] }[];
  readonly grep_formatted: { pattern: string; output?: string; output_sha256?: string; output_length?: number }[];
  readonly reranker_prompt: { query: string; document: string; sha256: string };
}

export const retrievalFixture = async (): Promise<RetrievalFixture> =>
  JSON.parse(await readFile(path.join(import.meta.dirname, '../fixtures/knowledge-retrieval.json'), 'utf8')) as RetrievalFixture;
