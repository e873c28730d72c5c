// What the viewer's browser tests share: a scripted agent that passes create_task_1 (and fails update_task_1),
// waiting for a run to finish, and tearing the browser, worker and provider down.
import { rm } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import type { LocalWorker } from '../../src/cli/local/worker.ts';
import type { ApiClient } from '../../src/client/index.ts';
import { isAgent, text, toolCall } from './fake-openai.ts';
import type { FakeHandler, FakeOpenAI } from './fake-openai.ts';

/** Creates the task the user did not ask for: create_task_1 passes with it, update_task_1 does not. */
export const creatingAgent =
  (user: FakeHandler): FakeHandler =>
  (request) => {
    if (!isAgent(request)) return user(request);
    const last = (request.body as { messages?: { role?: string }[] }).messages?.at(-1);
    return last?.role === 'tool' ? text('Your task Important Meeting is created.') : toolCall('create_task', '{"user_id": "user_1", "title": "Important Meeting"}', 'call_create');
  };

export const waitFinished = async (api: ApiClient, id: string, timeoutMs: number): Promise<void> => {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if ((await api.run(id)).status !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`run ${id} did not finish`);
};

export const stopAll = async (parts: { browser?: Browser; worker?: LocalWorker; fake?: FakeOpenAI; dir?: string }): Promise<void> => {
  await parts.browser?.close();
  await parts.worker?.stop();
  await parts.fake?.close();
  if (parts.dir) await rm(parts.dir, { recursive: true, force: true });
};
