// The provider registry: every model provider tau2-edge calls, each named once. An entry holds the provider's
// identity: the environment variables of the operator's key (the first one set wins) and API root, its public
// API root, whether a tenant may store its own credential for it (/v1/provider-credentials), its adapters
// with the litellm-style model-name prefixes that reach each one, and its price source in the bundled catalogue. The Worker, the CLI, the local worker's
// variables, deploy and the API schemas read this table; the adapters' factories are in adapters.ts, keyed by
// the adapter names used here. Pure data, so the viewer's bundle can read it too.

/** One adapter of a provider and the model names it serves: `prefix` stripped from the name, `kept` kept. */
export interface AdapterRoute {
  readonly adapter: string;
  readonly prefixes: readonly string[];
  readonly kept?: readonly string[];
}

export interface ProviderIdentity {
  /** The provider's name as users read it. */
  readonly label: string;
  /** Variables holding the operator's key, in order of precedence. */
  readonly keyVars: readonly string[];
  /** The variable of the operator's API root for it. */
  readonly baseUrlVar: string;
  /** Its public API root (the adapters' own default). */
  readonly defaultBaseUrl: string;
  /** Whether a tenant may store its own key for it. */
  readonly tenantCredential: boolean;
  /** Its chat adapters, most specific prefix first; none for a provider used for embeddings only. */
  readonly routes: readonly AdapterRoute[];
  /**
   * Its price source: the litellm provider names that prefix its model names (`gemini/…`), each with the id
   * of the provider the price catalogue (@pydantic/genai-prices, read by pricing.ts) prices them as.
   */
  readonly priceSource: Readonly<Record<string, string>>;
}

export const PROVIDERS = {
  openai: {
    label: 'OpenAI',
    keyVars: ['OPENAI_API_KEY'],
    baseUrlVar: 'OPENAI_BASE_URL',
    defaultBaseUrl: 'https://api.openai.com/v1',
    tenantCredential: true,
    // Every name no other route claims goes to the OpenAI-compatible Chat Completions (DEFAULT_ROUTE).
    routes: [{ adapter: 'openai.responses', prefixes: ['openai/responses/'] }],
    // An OpenAI-compatible endpoint (a litellm proxy, say) also serves other vendors' models under their
    // litellm names: they are priced as their vendor's.
    priceSource: { openai: 'openai', mistral: 'mistral', groq: 'groq', deepseek: 'deepseek', xai: 'x-ai' },
  },
  anthropic: {
    label: 'Anthropic',
    keyVars: ['ANTHROPIC_API_KEY'],
    baseUrlVar: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    tenantCredential: true,
    routes: [{ adapter: 'anthropic', prefixes: ['anthropic/'], kept: ['claude-'] }],
    priceSource: { anthropic: 'anthropic' },
  },
  google: {
    label: 'Google',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    baseUrlVar: 'GOOGLE_GENERATIVE_AI_BASE_URL',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    tenantCredential: true,
    routes: [{ adapter: 'google', prefixes: ['gemini/'] }],
    priceSource: { gemini: 'google', vertex_ai: 'google' },
  },
  openrouter: {
    label: 'OpenRouter',
    keyVars: ['OPENROUTER_API_KEY'],
    baseUrlVar: 'OPENROUTER_BASE_URL',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    // The reference calls OpenRouter for Qwen embeddings only; tenants' embeddings follow their OpenAI endpoint.
    tenantCredential: false,
    routes: [],
    priceSource: { openrouter: 'openrouter' },
  },
} as const satisfies Record<string, ProviderIdentity>;

export type ProviderId = keyof typeof PROVIDERS;
type Entry = (typeof PROVIDERS)[ProviderId];

/** The provider ids a tenant may store a credential for. */
export type CredentialProvider = { [P in ProviderId]: (typeof PROVIDERS)[P]['tenantCredential'] extends true ? P : never }[ProviderId];
export const CREDENTIAL_PROVIDERS = Object.entries(PROVIDERS)
  .filter(([, entry]) => entry.tenantCredential)
  .map(([id]) => id) as [CredentialProvider, ...CredentialProvider[]];

/** The adapter of every model name no route claims: the OpenAI endpoint's Chat Completions, with the reference's byte-exact payload. */
export const DEFAULT_ROUTE = { adapter: 'openai', provider: 'openai' } as const;

/** Every adapter's name. */
export type AdapterName = Entry['routes'][number]['adapter'] | typeof DEFAULT_ROUTE.adapter;
/** The adapters of providers that are not the OpenAI endpoint. */
export type NativeProvider = Exclude<{ [P in ProviderId]: (typeof PROVIDERS)[P]['routes'] extends readonly [] ? never : P }[ProviderId], 'openai'>;

/** The native providers, in the registry's order. */
export const NATIVE_PROVIDERS = (Object.keys(PROVIDERS) as ProviderId[]).filter(
  (id): id is NativeProvider => id !== DEFAULT_ROUTE.provider && PROVIDERS[id].routes.length > 0,
);

/** Every variable the registry names: the operator's keys and API roots. */
export type ProviderVarName = Entry['keyVars'][number] | Entry['baseUrlVar'];
export type ProviderVars = Partial<Record<ProviderVarName, string>>;
export const PROVIDER_VARS: readonly ProviderVarName[] = Object.values(PROVIDERS).flatMap((entry) => [...entry.keyVars, entry.baseUrlVar]);
/** The variables of the operator's keys (deploy sets them as secrets). */
export const PROVIDER_KEY_VARS: readonly ProviderVarName[] = Object.values(PROVIDERS).flatMap((entry) => entry.keyVars);

const ROUTES = Object.entries(PROVIDERS).flatMap(([provider, entry]) =>
  (entry.routes as readonly AdapterRoute[]).map((route) => ({ ...route, provider: provider as ProviderId })),
);

/** The adapter a model name addresses, and the model's name at that provider. */
export const modelRoute = (name: string): { provider: AdapterName; model: string } => {
  for (const route of ROUTES) {
    const stripped = route.prefixes.find((prefix) => name.startsWith(prefix));
    if (stripped !== undefined) return { provider: route.adapter as AdapterName, model: name.slice(stripped.length) };
    if (route.kept?.some((prefix) => name.startsWith(prefix))) return { provider: route.adapter as AdapterName, model: name };
  }
  return { provider: DEFAULT_ROUTE.adapter, model: name };
};

/** The provider whose adapter it is (whose key and API root its calls take). */
export const adapterOwner = (adapter: AdapterName): ProviderId => ROUTES.find((route) => route.adapter === adapter)?.provider ?? DEFAULT_ROUTE.provider;

/** Whether a model goes to the OpenAI endpoint (Chat Completions or Responses): the key and api_base rules are theirs. */
export const isOpenAIRoute = (adapter: AdapterName): boolean => adapterOwner(adapter) === DEFAULT_ROUTE.provider;

const PRICE_SOURCES: ReadonlyMap<string, string> = new Map(Object.values(PROVIDERS).flatMap((entry) => Object.entries(entry.priceSource)));

/** The price catalogue's provider of a model, by its litellm provider prefix (`gemini/…` → `google`); undefined without a known one. */
export const catalogueProvider = (model: string): string | undefined =>
  model.includes('/') ? PRICE_SOURCES.get(model.slice(0, model.indexOf('/'))) : undefined;

/** The operator's key for a provider (its first key variable that is set), or undefined. */
export const operatorKey = (vars: ProviderVars, provider: ProviderId): string | undefined =>
  (PROVIDERS[provider].keyVars as readonly ProviderVarName[]).map((name) => vars[name]).find((value) => Boolean(value));

/** The operator's API root for a provider, or undefined for its public one. */
export const operatorBaseUrl = (vars: ProviderVars, provider: ProviderId): string | undefined => vars[PROVIDERS[provider].baseUrlVar] || undefined;

/** The API root the operator's calls to a provider go to: its variable's, else the public one. */
export const operatorApiRoot = (vars: ProviderVars, provider: ProviderId): string => operatorBaseUrl(vars, provider) ?? PROVIDERS[provider].defaultBaseUrl;

/** The operator's credential for a provider: its key and, when set, its API root; null without a key. */
export const operatorCredential = (vars: ProviderVars, provider: ProviderId): { apiKey: string; baseURL?: string } | null => {
  const apiKey = operatorKey(vars, provider);
  const baseURL = operatorBaseUrl(vars, provider);
  return apiKey === undefined ? null : { apiKey, ...(baseURL === undefined ? {} : { baseURL }) };
};

/** How a user gives the operator's key for a provider, e.g. `GEMINI_API_KEY (or GOOGLE_GENERATIVE_AI_API_KEY)`. */
export const keyVarsText = (provider: ProviderId): string => {
  const [first, ...others] = PROVIDERS[provider].keyVars as readonly string[];
  return others.length === 0 ? first! : `${first} (or ${others.join(', ')})`;
};
