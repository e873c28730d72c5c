// The knowledge base as the retrievers see it: documents with an id, a title and a content.
import { z } from 'zod';

export const KnowledgeDocumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
});
export type KnowledgeDocument = z.infer<typeof KnowledgeDocumentSchema>;

/** A retrieved document id with its score, best first. */
export interface RankedDocument {
  readonly id: string;
  readonly score: number;
}

/**
 * The index order of the knowledge base: document files sorted by name (a document's file is `<id>.json`).
 * The reference indexes in directory-listing order, which differs between file systems; the order matters
 * only for ties (for example the ten zero-score documents of a query that matches nothing), and sorting by
 * file name makes it the same on every machine.
 */
export const inIndexOrder = (docs: readonly KnowledgeDocument[]): KnowledgeDocument[] =>
  [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** Looks documents up by id for result formatting. */
export const documentLookup = (docs: readonly KnowledgeDocument[]): ReadonlyMap<string, KnowledgeDocument> =>
  new Map(docs.map((doc) => [doc.id, doc]));
