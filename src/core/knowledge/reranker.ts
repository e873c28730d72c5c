// The pointwise LLM reranker of the `_reranker` configurations: the model rates each retrieved document's
// relevance to the query from 0 to 10 (structured output), documents under the minimum are dropped, and the
// rest are ordered by rating. Calls go through the engine's model client, so provider caps and retries apply.
import type { LlmClient, LlmRequest } from '../llm/types.ts';
import type { PyValue } from '../py/index.ts';
import type { KnowledgeDocument, RankedDocument } from './documents.ts';

export const POINTWISE_RERANKER_PROMPT = `A document is relevant if it contains information that helps answer or address the query.
A document is not relevant if it doesn't contain information that helps answer the query, even if it mentions similar topics.
Is the document below relevant to answering the query below?
Rate the relevance from 0-10. 0 means completely irrelevant, 10 means highly relevant and completely addresses the query.

Here is the query:
<start_query>
{}
<end_query>

Here is the document:
<start_document>
{}
<end_document>`;

/** The reference's structured-output format for `RelevanceScore { relevance_score: int }`. */
export const RELEVANCE_SCORE_FORMAT: { [key: string]: PyValue } = {
  type: 'json_schema',
  json_schema: {
    schema: {
      properties: { relevance_score: { title: 'Relevance Score', type: 'integer' } },
      required: ['relevance_score'],
      title: 'RelevanceScore',
      type: 'object',
      additionalProperties: false,
    },
    name: 'RelevanceScore',
    strict: true,
  },
};

export interface PointwiseRerankerOptions {
  /** The reference's default rater. */
  readonly model?: string;
  /** Ratings below this are dropped; the configurations use 5. */
  readonly minScore?: number;
  /** Sent to gpt-5 models only, as the reference does. */
  readonly reasoningEffort?: string | null;
  readonly maxConcurrency?: number;
}

export const RERANKER_DEFAULTS = { model: 'gpt-5.2', minScore: 5, reasoningEffort: 'low', maxConcurrency: 20 } as const;

/** The prompt for one document: `str.format` of the two positional fields. */
export const rerankerPrompt = (query: string, passage: string): string => {
  const [head, middle, tail] = POINTWISE_RERANKER_PROMPT.split('{}');
  return `${head}${query}${middle}${passage}${tail}`;
};

export const rerankerRequest = (query: string, passage: string, options: PointwiseRerankerOptions = {}): LlmRequest => {
  const model = options.model ?? RERANKER_DEFAULTS.model;
  const effort = options.reasoningEffort === undefined ? RERANKER_DEFAULTS.reasoningEffort : options.reasoningEffort;
  return {
    model,
    messages: [{ role: 'user', content: rerankerPrompt(query, passage) }],
    tools: null,
    toolChoice: null,
    llmArgs: {
      response_format: RELEVANCE_SCORE_FORMAT,
      ...(effort && model.startsWith('gpt-5') ? { reasoning_effort: effort } : {}),
    },
  };
};

/**
 * The rating in a structured reply, clamped to 0–10; an empty reply rates 0. A reply that is not a
 * `RelevanceScore` is `undefined`: the reference drops that document.
 */
export const parseRelevance = (content: string | null): number | undefined => {
  if (content === null) return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return undefined;
  }
  const raw = typeof parsed === 'object' && parsed !== null ? (parsed as { relevance_score?: unknown }).relevance_score : undefined;
  const value = typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) return undefined;
  return Math.max(0, Math.min(10, value));
};

const mapLimited = async <T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> => {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
};

/**
 * Re-scores `results` by the model's ratings. Documents without content are not rated; a provider failure
 * (after the client's retries) propagates as an InfraError instead of silently dropping the document.
 */
export const rerankPointwise = async (
  client: LlmClient,
  query: string,
  results: readonly RankedDocument[],
  lookup: ReadonlyMap<string, KnowledgeDocument>,
  options: PointwiseRerankerOptions = {},
): Promise<RankedDocument[]> => {
  const minScore = options.minScore ?? RERANKER_DEFAULTS.minScore;
  const toRate = results.flatMap(({ id }) => {
    const content = lookup.get(id)?.content ?? '';
    return content ? [{ id, content }] : [];
  });
  const ratings = await mapLimited(toRate, options.maxConcurrency ?? RERANKER_DEFAULTS.maxConcurrency, async ({ id, content }) => {
    const reply = await client.generate(rerankerRequest(query, content, options));
    return { id, rating: parseRelevance(reply.content) };
  });
  const kept = ratings.flatMap(({ id, rating }) => (rating !== undefined && rating >= minScore ? [{ id, score: rating }] : []));
  return kept.sort((a, b) => b.score - a.score);
};
