// Where a run in this process sends its embeddings: OpenAI's model to the OpenAI-compatible endpoint, Qwen's to
// OpenRouter when OPENROUTER_API_KEY or OPENROUTER_BASE_URL is set, else to the OpenAI-compatible endpoint too.
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeEmbeddings } from '../support/fake-embeddings.ts';
import { cliToolServices } from '../../src/cli/run/tool-services.ts';
import { OPENAI_EMBEDDINGS, QWEN_EMBEDDINGS } from '../../src/core/knowledge/embedder.ts';

const [openai, openrouter] = await Promise.all([startFakeEmbeddings(), startFakeEmbeddings()]);
afterAll(() => Promise.all([openai.close(), openrouter.close()]));
const model = { generate: () => Promise.reject(new Error('no model calls here')) };

describe('cliToolServices', () => {
  it('sends Qwen embeddings to OpenRouter only when it is configured', async () => {
    const configured = cliToolServices(model, openai.baseURL, { OPENROUTER_BASE_URL: openrouter.baseURL, OPENROUTER_API_KEY: 'sk-or' });
    await configured.embedder(QWEN_EMBEDDINGS).embed(['a']);
    await configured.embedder(OPENAI_EMBEDDINGS).embed(['b']);
    expect(openrouter.requests.map((r) => [r.body.model, r.headers.authorization])).toEqual([['qwen/qwen3-embedding-8b', 'Bearer sk-or']]);
    expect(openai.requests.map((r) => r.body.model)).toEqual(['text-embedding-3-large']);

    const unconfigured = cliToolServices(model, openai.baseURL, { OPENAI_API_KEY: 'sk-oa' });
    await unconfigured.embedder(QWEN_EMBEDDINGS).embed(['c']);
    expect(openai.requests.at(-1)).toMatchObject({ body: { model: 'qwen/qwen3-embedding-8b' }, headers: { authorization: 'Bearer sk-oa' } });
    expect(openrouter.requests).toHaveLength(1);
    // One embedder per model, so an index is built once per process.
    expect(unconfigured.embedder(QWEN_EMBEDDINGS)).toBe(unconfigured.embedder(QWEN_EMBEDDINGS));
  });
});
