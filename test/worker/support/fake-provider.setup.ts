// Global setup of the worker tests (runs in Node): a scripted OpenAI-compatible provider on 127.0.0.1 whose
// replies depend only on the request, so concurrent episodes, the core engine and a resumed episode all get
// the same conversation; it also answers embeddings and the retrieval reranker's ratings. Its base URL becomes the Worker's OPENAI_BASE_URL (see vitest.config.ts). A second
// server is a remote agent endpoint: it plays the scripted agent for callers carrying AGENT_ENDPOINT_KEY. A third
// is a role's own provider (api_base in llm_args): it plays the agent for the operator's or the tenant's key.
// A fourth answers every call with a redirect to a fifth, which records whether anything reached it.
import type { TestProject } from 'vitest/node';
import { drop, httpError, startFakeOpenAI, text, toolCall } from '../../support/fake-openai.ts';
import type { CapturedRequest, FakeReply } from '../../support/fake-openai.ts';
import { AGENT_ENDPOINT_KEY, LONG_CONVERSATION_TURNS, NATIVE, OPERATOR_PROVIDER_KEY, PRICED_AGENT_USAGE, PRICED_CALL_USAGE, PRICED_JUDGE_USAGE, SCRIPT_MODELS, TENANT_PROVIDER_KEY } from './script.ts';
import { endsWithToolResult, startFakeNative } from '../../support/fake-native.ts';
import { isRerankRequest, rerankReply } from '../../support/fake-reranker.ts';
import type { NativeReply, NativeRequest } from '../../support/fake-native.ts';
import { startRedirectTrap } from '../../support/redirect-trap.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    fakeProviderBaseURL: string;
    agentEndpointURL: string;
    anthropicBaseURL: string;
    googleBaseURL: string;
    responsesBaseURL: string;
    roleProviderBaseURL: string;
    redirectBouncerURL: string;
    redirectTrapURL: string;
  }
}

interface WireMessage {
  readonly role: string;
  readonly content: string | null;
  readonly tool_calls?: unknown[];
}

const wireMessages = (request: CapturedRequest): WireMessage[] =>
  ((request.body as { messages?: WireMessage[] } | undefined)?.messages ?? []);

/** The scripted agent: creates the task once, then confirms. */
const agentReply = (messages: readonly WireMessage[]): FakeReply =>
  messages[messages.length - 1]?.role === 'tool'
    ? text('Your task Important Meeting has been created.')
    : toolCall('create_task', '{"user_id": "user_1", "title": "Important Meeting"}');

/** The scripted user (its own turns come back as `assistant`): asks once, then stops. */
const userReply = (messages: readonly WireMessage[]): FakeReply =>
  messages.some((m) => m.role === 'assistant')
    ? text('Thanks! ###STOP###')
    : text('Hi, please create a task called Important Meeting for user_1.');

/**
 * The scripted user that uses its tools (when it has them): checks its notifications first, then asks for help
 * until the agent says it is all done (the conversation may open with history).
 */
const diligentUserReply = (request: CapturedRequest, messages: readonly WireMessage[]): FakeReply => {
  const tools = ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
  const checked = messages.some((m) => m.role === 'assistant' && (m.tool_calls ?? []).length > 0);
  if (tools.includes('check_notifications') && !checked) return toolCall('check_notifications', '{}');
  const agentSaid = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  return agentSaid.includes('All done.') ? text('Thanks! ###STOP###') : text('Hi, I need some help with my account.');
};

/** The talkative user: its own earlier turns come back as `assistant`; it stops on its last turn. */
const talkativeUserReply = (messages: readonly WireMessage[]): FakeReply => {
  const spoken = messages.filter((m) => m.role === 'assistant').length;
  return spoken + 1 >= LONG_CONVERSATION_TURNS ? text('Thanks, that is all. ###STOP###') : text(`Turn ${spoken + 1}: I still need help, here is one more detail.`);
};

/** The scripted judge: every expected outcome (the Python list after `expectedOutcomes:`) is met. */
const judgeReply = (messages: readonly WireMessage[]): FakeReply => {
  const prompt = messages[messages.length - 1]?.content ?? '';
  const list = prompt.slice(prompt.lastIndexOf('expectedOutcomes:'));
  const outcomes = [...list.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? m[2])!.replace(/\\(.)/g, '$1'));
  return text(JSON.stringify({ results: outcomes.map((o) => ({ expectedOutcome: o, reasoning: 'scripted', metExpectation: true })) }));
};

/** Request bodies the flaky agent has already refused once, and those whose connection the dropping agent closed. */
const refusedOnce = new Set<string>();
const droppedOnce = new Set<string>();

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const reply = async (request: CapturedRequest): Promise<FakeReply> => {
  if (isRerankRequest(request)) return rerankReply(request);
  const model = (request.body as { model?: unknown } | undefined)?.model;
  const messages = wireMessages(request);
  switch (model) {
    case SCRIPT_MODELS.agent:
      return agentReply(messages);
    case SCRIPT_MODELS.slowAgent:
      await delay(400);
      return agentReply(messages);
    case SCRIPT_MODELS.user:
      return userReply(messages);
    case SCRIPT_MODELS.talkingAgent:
      return text('I see. Could you tell me a little more about that?');
    case SCRIPT_MODELS.talkativeUser:
      return talkativeUserReply(messages);
    case SCRIPT_MODELS.diligentUser:
      return diligentUserReply(request, messages);
    case SCRIPT_MODELS.judge:
      return judgeReply(messages);
    case SCRIPT_MODELS.pricedAgent:
      return { ...agentReply(messages), usage: PRICED_AGENT_USAGE } as FakeReply;
    case SCRIPT_MODELS.pricedJudge:
      return { ...judgeReply(messages), usage: PRICED_JUDGE_USAGE } as FakeReply;
    case SCRIPT_MODELS.pricedUser:
      return { ...userReply(messages), usage: PRICED_CALL_USAGE } as FakeReply;
    case SCRIPT_MODELS.pricedTalkativeUser:
      return text('I still need help, here is one more detail.', { usage: PRICED_CALL_USAGE });
    case SCRIPT_MODELS.pricedSlowAgent:
      await delay(400);
      return { ...agentReply(messages), usage: PRICED_CALL_USAGE } as FakeReply;
    case SCRIPT_MODELS.pricedFailingAgent:
      return httpError(500, 'scripted: this priced agent always fails');
    case SCRIPT_MODELS.flakyAgent:
      if (!refusedOnce.has(request.bodyText)) {
        refusedOnce.add(request.bodyText);
        return httpError(request.bodyText.length % 2 === 0 ? 429 : 503, 'scripted: try again');
      }
      return agentReply(messages);
    case SCRIPT_MODELS.droppingAgent:
      if (!droppedOnce.has(request.bodyText)) {
        droppedOnce.add(request.bodyText);
        return drop();
      }
      return agentReply(messages);
    case SCRIPT_MODELS.brokenAgent:
      return httpError(400, 'scripted: this model always fails');
    case SCRIPT_MODELS.tenantAgent:
      if (request.headers.authorization !== `Bearer ${TENANT_PROVIDER_KEY}`) return httpError(401, 'scripted: this model takes the tenant key only');
      return agentReply(messages);
    default:
      return httpError(404, `scripted: unknown model ${String(model)}`);
  }
};

/** The remote agent: any model name, the scripted agent's replies; `/broken/` URLs always fail. */
const agentEndpointReply = (request: CapturedRequest): FakeReply => {
  if (request.headers['x-agent-key'] !== AGENT_ENDPOINT_KEY) return httpError(401, 'scripted agent endpoint: wrong key');
  if (request.path.includes('/broken/')) return httpError(503, 'scripted agent endpoint: down');
  return agentReply(wireMessages(request));
};

/** A role's own provider: the scripted agent, for calls carrying the operator's key or a tenant's own key only. */
const roleProviderReply = (request: CapturedRequest): FakeReply => {
  const auth = request.headers.authorization;
  if (auth !== `Bearer ${OPERATOR_PROVIDER_KEY}` && auth !== `Bearer ${TENANT_PROVIDER_KEY}`) return httpError(401, 'scripted role provider: no key it knows');
  if ((request.body as { model?: unknown }).model !== SCRIPT_MODELS.roleAgent) return httpError(404, 'scripted role provider: unknown model');
  return agentReply(wireMessages(request));
};

/** Whether a native request carries the key it is meant to be called with. */
const rightKey = (request: NativeRequest): boolean => {
  switch (request.provider) {
    case 'anthropic':
      return request.headers['x-api-key'] === (request.model === NATIVE.tenantModel ? NATIVE.tenantKey : NATIVE.operatorKey);
    case 'google':
      return request.headers['x-goog-api-key'] === NATIVE.googleKey;
    case 'responses':
      return request.headers.authorization === `Bearer ${OPERATOR_PROVIDER_KEY}`;
  }
};

/**
 * The scripted agent on Anthropic's, Google's and OpenAI's Responses API, thinking where the request lets it:
 * each model answers only to the key it is meant to be called with.
 */
const nativeReply = (request: NativeRequest): NativeReply => {
  if (!rightKey(request)) return { kind: 'error', status: 401, message: 'scripted: wrong key for this model' };
  return endsWithToolResult(request)
    ? { kind: 'text', text: 'Your task Important Meeting has been created.', reasoning: 'The task exists now.' }
    : { kind: 'tool', name: 'create_task', input: { user_id: 'user_1', title: 'Important Meeting' }, reasoning: 'I need to create the task.' };
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fake = await startFakeOpenAI();
  fake.setHandler(reply);
  project.provide('fakeProviderBaseURL', fake.baseURL);
  const agent = await startFakeOpenAI();
  agent.setHandler(agentEndpointReply);
  project.provide('agentEndpointURL', `${agent.baseURL}/agent/chat/completions`);
  const role = await startFakeOpenAI();
  role.setHandler(roleProviderReply);
  project.provide('roleProviderBaseURL', role.baseURL);
  const native = await startFakeNative();
  native.setHandler(nativeReply);
  project.provide('anthropicBaseURL', native.anthropicURL);
  project.provide('googleBaseURL', native.googleURL);
  project.provide('responsesBaseURL', native.responsesURL);
  const redirects = await startRedirectTrap();
  project.provide('redirectBouncerURL', redirects.bouncerURL);
  project.provide('redirectTrapURL', redirects.trapURL);
  return async () => {
    await redirects.close();
    await fake.close();
    await agent.close();
    await role.close();
    await native.close();
  };
}
