// The pointwise reranker through the engine's AI SDK client against the scripted provider on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentLookup } from '../../../src/core/knowledge/documents.ts';
import type { KnowledgeDocument } from '../../../src/core/knowledge/documents.ts';
import { RELEVANCE_SCORE_FORMAT, parseRelevance, rerankPointwise, rerankerPrompt } from '../../../src/core/knowledge/reranker.ts';
import { createAiSdkClient } from '../../../src/core/llm/ai-sdk-client.ts';
import { isInfraError } from '../../../src/core/llm/types.ts';
import { httpError, startFakeOpenAI, text } from '../../support/fake-openai.ts';
import type { FakeOpenAI } from '../../support/fake-openai.ts';
import { retrievalFixture } from '../../support/knowledge.ts';
import { sha256Hex } from '../../../src/core/py/index.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const docs: KnowledgeDocument[] = [
  { id: 'a', title: 'A', content: 'Wire fees: $15.' },
  { id: 'b', title: 'B', content: 'Card replacement.' },
  { id: 'c', title: 'C', content: 'Overdraft {fees}.' },
  { id: 'd', title: 'D', content: '' },
];
const retrieved = docs.map((d, i) => ({ id: d.id, score: 1 - i / 10 }));
const client = () => createAiSdkClient({ baseURL: fake.baseURL, apiKey: 'k', maxRetries: 1, sleep: async () => {} });
// Replies are routed by the document in the prompt, since ratings run concurrently.
const rate = (content: string, reply: string) =>
  fake.enqueueFor((r) => JSON.stringify(r.body).includes(JSON.stringify(content).slice(1, -1)), text(reply));

describe('pointwise LLM reranker', () => {
  it('sends the reference prompt with the RelevanceScore format, keeps ratings ≥ min score, best first', async () => {
    rate('Wire fees: $15.', '{"relevance_score": 6}');
    rate('Card replacement.', '{"relevance_score": 3}');
    rate('Overdraft {fees}.', '{"relevance_score": 14}');
    const ranked = await rerankPointwise(client(), 'wire {fee}?', retrieved, documentLookup(docs), { minScore: 5 });
    expect(ranked).toEqual([
      { id: 'c', score: 10 },
      { id: 'a', score: 6 },
    ]);
    // The empty document is never rated.
    expect(fake.requests).toHaveLength(3);
    const body = fake.requests.find((r) => JSON.stringify(r.body).includes('Wire fees'))!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'gpt-5.2',
      messages: [{ role: 'user', content: rerankerPrompt('wire {fee}?', 'Wire fees: $15.') }],
      response_format: RELEVANCE_SCORE_FORMAT,
      reasoning_effort: 'low',
    });
    const reference = (await retrievalFixture()).reranker_prompt;
    expect(sha256Hex(rerankerPrompt(reference.query, reference.document))).toBe(reference.sha256);
    expect(rerankerPrompt('Q', 'D')).toContain('<start_query>\nQ\n<end_query>\n\nHere is the document:\n<start_document>\nD\n<end_document>');
  });

  it('sends no reasoning effort to models outside the gpt-5 series', async () => {
    for (const d of docs.slice(0, 3)) rate(d.content, '{"relevance_score": 7}');
    const ranked = await rerankPointwise(client(), 'q', retrieved, documentLookup(docs), { model: 'gpt-4.1' });
    expect(ranked.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(fake.requests.every((r) => !('reasoning_effort' in (r.body as object)))).toBe(true);
  });

  it('drops a document whose reply is not a RelevanceScore, as the reference does', () => {
    expect(parseRelevance('{"relevance_score": "8"}')).toBe(8);
    expect(parseRelevance('{"relevance_score": -3}')).toBe(0);
    expect(parseRelevance(null)).toBe(0);
    expect(parseRelevance('eight')).toBeUndefined();
    expect(parseRelevance('{"relevance_score": 7.5}')).toBeUndefined();
  });

  it('turns a provider that keeps failing into an infrastructure error, not a dropped document', async () => {
    fake.enqueue(httpError(503), httpError(503));
    const err = await rerankPointwise(client(), 'q', retrieved.slice(0, 1), documentLookup(docs)).catch((e: unknown) => e);
    expect(isInfraError(err)).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });
});
