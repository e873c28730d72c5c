// Secrets of the Worker, which `wrangler types` cannot see: set them with `wrangler secret put` (or .dev.vars).
declare global {
  interface Env {
    /** When set, every route but /v1/health requires `Authorization: Bearer <API_KEY>`. */
    API_KEY?: string;
    /** Sent to OPENAI_BASE_URL only. */
    OPENAI_API_KEY?: string;
    /** With it, the operator's Qwen embeddings go to OpenRouter (OPENROUTER_BASE_URL, else its public API). */
    OPENROUTER_API_KEY?: string;
    OPENROUTER_BASE_URL?: string;
    /** 32 random bytes, base64: encrypts tenants' own provider keys at rest (bring-your-own provider). */
    CREDENTIALS_KEY?: string;
    /** Set by `npm run limits` only: logs every call the platform's per-invocation limits count (limits-trace.ts). */
    LIMITS_TRACE?: string;
  }
}

export {};
