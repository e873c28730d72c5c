// kill -9 of the local runtime between two steps of an agent-driven episode: after a restart on the same state
// the episode continues from the last applied step (a repeat of it answers as before), and ends graded once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../support/load-harness.ts';
import type { Harness } from '../support/load-harness.ts';
import { mockConversation } from '../support/fake-openai.ts';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(mockConversation());
}, 120_000);
afterAll(async () => harness.close(), 60_000);

const createTask = {
  role: 'assistant' as const,
  content: null,
  tool_calls: [{ id: 'call_0', type: 'function' as const, function: { name: 'create_task', arguments: '{"user_id": "user_1", "title": "Important Meeting"}' } }],
};

describe('an agent-driven episode across kill -9 of the runtime', () => {
  it('continues from the last applied step', async () => {
    const created = await harness.client().createEpisode({ domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user' });
    const applied = await harness.client().step(created.episode_id, 0, createTask);
    expect(applied).toMatchObject({ step: 1, done: false });

    await harness.kill();
    await harness.restart();

    const client = harness.client();
    // The applied step survived: repeating it answers as before, and the episode waits for step 1.
    expect(await client.step(created.episode_id, 0, createTask)).toEqual(applied);
    const state = await client.episode(created.episode_id);
    expect(state).toMatchObject({ status: 'running', step: 1, waiting: true });
    expect(state.messages.filter((m) => m.role === 'tool')).toHaveLength(1);

    const end = await client.step(created.episode_id, 1, { role: 'assistant', content: 'Your task Important Meeting has been created.' });
    expect(end).toMatchObject({ step: 2, done: true, termination_reason: 'user_stop' });
    expect(end.reward_info).toMatchObject({ reward: 1 });
    const results = await client.results(created.run_id);
    expect(results.simulations).toHaveLength(1);
  }, 180_000);
});
