// A deterministic relevance rater for the pointwise reranker's structured requests, shared by tests and the
// fixture that recorded the reference's reranked results: the rating is twice the number of distinct query
// words found in the document, capped at 10.
import type { CapturedRequest, FakeReply } from './fake-openai.ts';
import { text } from './fake-openai.ts';

const words = (value: string): Set<string> => new Set(value.toLowerCase().match(/[a-z0-9]+/g) ?? []);

const between = (prompt: string, start: string, end: string): string => {
  const from = prompt.indexOf(start);
  const to = prompt.indexOf(end, from);
  return from < 0 || to < 0 ? '' : prompt.slice(from + start.length, to);
};

/** The rating of one reranker prompt. */
export const fakeRelevance = (prompt: string): number => {
  const query = words(between(prompt, '<start_query>', '<end_query>'));
  const document = words(between(prompt, '<start_document>', '<end_document>'));
  return Math.min(10, 2 * [...query].filter((word) => document.has(word)).length);
};

/** Whether a chat request is one of the reranker's (its structured output is a RelevanceScore). */
export const isRerankRequest = (request: CapturedRequest): boolean => {
  const format = (request.body as { response_format?: { json_schema?: { name?: unknown } } } | undefined)?.response_format;
  return format?.json_schema?.name === 'RelevanceScore';
};

/** The rater's answer to a reranker request. */
export const rerankReply = (request: CapturedRequest): FakeReply => {
  const messages = (request.body as { messages: { content: string }[] }).messages;
  return text(JSON.stringify({ relevance_score: fakeRelevance(messages[messages.length - 1]!.content) }));
};
