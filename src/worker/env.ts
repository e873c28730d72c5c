// Secrets of the Worker, which `wrangler types` cannot see: set them with `wrangler secret put` (or .dev.vars).
// The providers' keys and API roots are the registry's variables (core/llm/providers.ts); wrangler.toml's vars
// already type the ones it sets.
import type { ProviderVars } from '../core/llm/providers.ts';

declare global {
  interface Env extends Omit<ProviderVars, keyof __BaseEnv_Env> {
    /** When set, every route but /v1/health requires `Authorization: Bearer <API_KEY>`. */
    API_KEY?: string;
    /** 32 random bytes, base64: encrypts tenants' own provider keys at rest (bring-your-own provider). */
    CREDENTIALS_KEY?: string;
    /** Set by `npm run limits` only: logs every call the platform's per-invocation limits count (limits-trace.ts). */
    LIMITS_TRACE?: string;
  }
}

export {};
