// Model names the scripted provider (fake-provider.setup.ts) answers, and the run bodies the tests post.
import type { RunRequest } from '../../../src/api/index.ts';

export const SCRIPT_MODELS = {
  agent: 'script-agent',
  /** The same agent, answering after 400 ms: keeps episodes running long enough to cancel or evict. */
  slowAgent: 'script-agent-slow',
  user: 'script-user',
  /** A user that checks its notifications with its own tool (when it has it) before asking. */
  diligentUser: 'script-user-diligent',
  /** A judge for which every NL assertion is met. */
  judge: 'script-judge',
  /** Refuses each request once (429 or 503), then answers as the agent: the client's retries absorb it. */
  flakyAgent: 'script-agent-flaky',
  /**
   * Closes the connection of each request once before answering as the agent (a provider closing an idle
   * keep-alive connection as the request arrives): the client's retries absorb it.
   */
  droppingAgent: 'script-agent-dropping',
  /** Always answers HTTP 400, so every attempt fails and the episode ends as an infrastructure error. */
  brokenAgent: 'script-agent-broken',
  /** Answers as the agent only to calls carrying TENANT_PROVIDER_KEY: a tenant's own provider key. */
  tenantAgent: 'script-agent-tenant',
  /** An agent that only ever answers in words: keeps a conversation going as long as the user does. */
  talkingAgent: 'script-agent-talking',
  /** A user that speaks LONG_CONVERSATION_TURNS times before it stops: a long conversation. */
  talkativeUser: 'script-user-talkative',
  /** Known only to the role provider (TEST_ROLE_PROVIDER_URL), reached through llm_args_agent.api_base. */
  roleAgent: 'script-agent-role',
  /** The scripted agent under a priced name, reporting PRICED_AGENT_USAGE per call. */
  pricedAgent: 'gpt-4.1-mini',
  /** The scripted judge under a priced name, reporting PRICED_JUDGE_USAGE per call. */
  pricedJudge: 'gpt-4o-mini',
  /** The scripted user under a priced name, reporting PRICED_CALL_USAGE per call. */
  pricedUser: 'gpt-4.1',
  /** The talkative user under a priced name, reporting PRICED_CALL_USAGE per call. */
  pricedTalkativeUser: 'gpt-4o-2024-08-06',
  /** The slow agent under a priced name, reporting PRICED_CALL_USAGE per call. */
  pricedSlowAgent: 'gpt-4o',
  /** A priced agent that always answers HTTP 500: every attempt fails after its user's calls. */
  pricedFailingAgent: 'gpt-4.1-nano',
} as const;

/** What the priced user, talkative user and slow agent report per call: within the bound reserved for a call with max_tokens 100. */
export const PRICED_CALL_USAGE = { prompt_tokens: 500, completion_tokens: 50 };

/** What the priced agent reports: cached prompt and reasoning tokens included. */
export const PRICED_AGENT_USAGE = { prompt_tokens: 1000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 400 }, completion_tokens_details: { reasoning_tokens: 60 } };
export const PRICED_JUDGE_USAGE = { prompt_tokens: 2000, completion_tokens: 50 };

/** The operator's provider key (OPENAI_API_KEY in vitest.config.ts). */
export const OPERATOR_PROVIDER_KEY = 'sk-test-provider-key';

export const TENANT_PROVIDER_KEY = 'sk-tenant-own-provider-key';

/** Anthropic models of the scripted native server: the operator's key answers one, a tenant's own key the other. */
export const NATIVE = {
  operatorKey: 'sk-ant-operator-test',
  operatorModel: 'claude-sonnet-4-5',
  tenantKey: 'sk-ant-tenant-own-key',
  tenantModel: 'claude-3-5-haiku-latest',
  /** The operator's Gemini key (GEMINI_API_KEY in vitest.config.ts). */
  googleKey: 'gm-operator-test',
} as const;

/** The header value the scripted agent endpoint requires (x-agent-key): a secret of the caller's. */
export const AGENT_ENDPOINT_KEY = 'agent-endpoint-secret-7f3a';

export const API_KEY = 'test-api-key';

/** User turns of the talkative user's conversation. */
export const LONG_CONVERSATION_TURNS = 40;

export const scriptedRun = (overrides: Partial<RunRequest> = {}): RunRequest => ({
  domain: 'mock',
  llm_agent: SCRIPT_MODELS.agent,
  llm_user: SCRIPT_MODELS.user,
  llm_judge: SCRIPT_MODELS.agent,
  max_retries: 0,
  ...overrides,
});
