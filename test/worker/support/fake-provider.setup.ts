// Global setup of the worker tests (runs in Node): a scripted OpenAI-compatible provider on 127.0.0.1 whose
// replies depend only on the request, so concurrent episodes, the core engine and a resumed episode all get
// the same conversation. Its base URL becomes the Worker's OPENAI_BASE_URL (see vitest.config.ts).
import type { TestProject } from 'vitest/node';
import { httpError, startFakeOpenAI, text, toolCall } from '../../support/fake-openai.ts';
import type { CapturedRequest, FakeReply } from '../../support/fake-openai.ts';
import { SCRIPT_MODELS, TENANT_PROVIDER_KEY } from './script.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    fakeProviderBaseURL: string;
  }
}

interface WireMessage {
  readonly role: string;
  readonly content: string | null;
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

/** Request bodies the flaky agent has already refused once. */
const refusedOnce = new Set<string>();

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const reply = async (request: CapturedRequest): Promise<FakeReply> => {
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
    case SCRIPT_MODELS.flakyAgent:
      if (!refusedOnce.has(request.bodyText)) {
        refusedOnce.add(request.bodyText);
        return httpError(request.bodyText.length % 2 === 0 ? 429 : 503, 'scripted: try again');
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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fake = await startFakeOpenAI();
  fake.setHandler(reply);
  project.provide('fakeProviderBaseURL', fake.baseURL);
  return () => fake.close();
}
