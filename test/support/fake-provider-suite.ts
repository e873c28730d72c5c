// A test file's fake OpenAI-compatible provider (answering the mock domain's conversation) and a scratch folder,
// started before its tests and removed after them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { mockConversation, startFakeOpenAI } from './fake-openai.ts';
import type { FakeOpenAI } from './fake-openai.ts';

export interface FakeProviderSuite {
  readonly fake: FakeOpenAI;
  readonly dir: string;
}

export const fakeProviderSuite = (prefix: string): FakeProviderSuite => {
  const suite = {} as { fake: FakeOpenAI; dir: string };
  beforeAll(async () => {
    suite.fake = await startFakeOpenAI();
    suite.fake.setHandler(mockConversation());
    suite.dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await suite.fake.close();
    await rm(suite.dir, { recursive: true, force: true });
  });
  return suite;
};
