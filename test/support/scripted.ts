// Scripted conversations over HTTP (fake OpenAI-compatible server → AI SDK client → engine): a fresh fake
// server per test, so replies a test leaves unconsumed never reach the next one, and a loaded domain's
// simulation wired to it on a stepping clock with sequential ids.
import { afterEach, beforeEach } from 'vitest';
import { isAgent, isUserSimulator, startFakeOpenAI } from './fake-openai.ts';
import type { FakeOpenAI, FakeReply } from './fake-openai.ts';
import { sequentialIds, steppingClock } from './domains.ts';
import { createAiSdkClient } from '../../src/core/llm/ai-sdk-client.ts';
import { pyFloat } from '../../src/core/py/index.ts';
import type { SimulationDeps, SimulationSpec } from '../../src/core/runner/simulation.ts';
import type { Task } from '../../src/core/schemas/task.ts';
import type { LoadedDomain } from '../../src/cli/data.ts';

/** An llm_agent simulation of `task`, trial 0, with the seed of the spec's verified runs (B.3, B.4). */
export const scriptedSpec = (task: Task, extra: Partial<SimulationSpec> = {}): SimulationSpec => ({
  task,
  agent: 'llm_agent',
  trial: 0,
  seed: 626729,
  ...extra,
});

export interface ScriptedProvider {
  /** The current test's server. */
  readonly fake: FakeOpenAI;
  /** Queues replies for the user simulator's requests. */
  userSays(...replies: FakeReply[]): void;
  /** Queues replies for the agent's requests. */
  agentSays(...replies: FakeReply[]): void;
  /** A simulation of `domain` whose agent, user and judge all call the server with one scripted model. */
  deps(domain: LoadedDomain, overrides?: Partial<SimulationDeps>): SimulationDeps;
}

/** Starts a server before each test of the calling file and closes it after. */
export const scriptedProvider = (): ScriptedProvider => {
  let current: FakeOpenAI | undefined;
  beforeEach(async () => {
    current = await startFakeOpenAI();
  });
  afterEach(async () => current!.close());
  const provider: ScriptedProvider = {
    get fake() {
      if (!current) throw new Error('the scripted provider runs only inside a test');
      return current;
    },
    userSays: (...replies) => provider.fake.enqueueFor(isUserSimulator, ...replies),
    agentSays: (...replies) => provider.fake.enqueueFor(isAgent, ...replies),
    deps: (domain, overrides = {}) => {
      const client = createAiSdkClient({ baseURL: provider.fake.baseURL, apiKey: 'test-key', maxRetries: 0, sleep: async () => {} });
      const model = { client, model: 'scripted-model', llmArgs: { temperature: pyFloat(0) } };
      return {
        domain: domain.domain,
        data: domain.data,
        guidelines: domain.guidelines,
        agentModel: model,
        userModel: model,
        judge: model,
        clock: steppingClock(),
        newId: sequentialIds(),
        ...overrides,
      };
    },
  };
  return provider;
};
