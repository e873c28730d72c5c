// The tool services of a run in this process: embeddings on the OpenAI-compatible endpoint (--llm-base-url, else
// the operator's, with the OpenAI key), Qwen's on OpenRouter when either of its variables is set, as the reference
// calls them (the local worker follows the same rule); document vectors in the file cache; the reranker on the
// run's model client.
import type { ToolServices } from '../../core/environment/tool-services.ts';
import type { Embedder, EmbedderSpec } from '../../core/knowledge/embedder.ts';
import { createAiSdkEmbedder } from '../../core/llm/embedder.ts';
import type { LlmClient } from '../../core/llm/types.ts';
import { embeddingEndpoint } from '../../core/llm/embedding-endpoint.ts';
import { fileEmbeddingStore } from './embedding-file-store.ts';

export const cliToolServices = (model: LlmClient, llmBaseUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): ToolServices => {
  const embedders = new Map<string, Embedder>();
  return {
    embedder: (spec) => {
      const key = `${spec.provider}/${spec.model}`;
      let embedder = embedders.get(key);
      if (!embedder) embedders.set(key, (embedder = createAiSdkEmbedder({ spec, ...embeddingEndpoint(spec, env, llmBaseUrl) })));
      return embedder;
    },
    embeddingStore: fileEmbeddingStore(),
    model,
    nowMs: () => performance.now(),
  };
};
