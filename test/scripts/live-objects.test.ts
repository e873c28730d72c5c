// A local worker at its bound on live objects (LIMIT_LIVE_OBJECTS, set low here; the local runtime derives it
// from the open-file limit): new episodes are refused with 503 `overloaded` and Retry-After, never 500, and
// nothing is created; the episodes it holds still step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness } from '../support/load-harness.ts';
import type { Harness } from '../support/load-harness.ts';
import { mockConversation } from '../support/fake-openai.ts';
import { ApiRequestError } from '../../src/client/index.ts';

const LIMIT = 5;
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness(mockConversation(), { workerVars: { LIMIT_LIVE_OBJECTS: String(LIMIT) } });
}, 120_000);
afterAll(async () => harness.close(), 60_000);

const EPISODE = { domain: 'mock', task_id: 'create_task_1', llm_user: 'fake-user' } as const;
const getUsers = { role: 'assistant' as const, content: null, tool_calls: [{ id: 'call_0', type: 'function' as const, function: { name: 'get_users', arguments: '{}' } }] };

describe('a local worker at its bound on live objects', () => {
  it('refuses new episodes with 503 and Retry-After, creating nothing, and still steps the ones it holds', async () => {
    const client = harness.client();
    const created: string[] = [];
    let refusal: unknown = null;
    // Each episode loads a run object and an episode object: the bound is reached within a few.
    for (let n = 0; n < LIMIT && refusal === null; n++) {
      try {
        created.push((await client.createEpisode(EPISODE)).episode_id);
      } catch (error) {
        refusal = error;
      }
    }
    expect(created.length).toBeGreaterThan(0);
    expect(refusal).toBeInstanceOf(ApiRequestError);
    const { status, code, retryAfterSeconds } = refusal as ApiRequestError;
    expect({ status, code }).toEqual({ status: 503, code: 'overloaded' });
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // At most the time the runtime may hold an object (src/worker/live-objects.ts).
    expect(retryAfterSeconds).toBeLessThanOrEqual(150);
    // The refused request recorded no run.
    expect(await client.listRuns(100)).toHaveLength(created.length);
    expect(await client.step(created[0]!, 0, getUsers)).toMatchObject({ step: 1, done: false });
  }, 180_000);

  it('refuses an OpenEnv reset with CAPACITY_REACHED (503 overloaded)', async () => {
    const ws = new WebSocket(`${harness.worker().url.replace(/^http/, 'ws')}/openenv/ws`);
    await new Promise((resolve, reject) => {
      ws.addEventListener('open', resolve, { once: true });
      ws.addEventListener('error', reject, { once: true });
    });
    const reply = new Promise<unknown>((resolve) => ws.addEventListener('message', (event) => resolve(JSON.parse(String(event.data))), { once: true }));
    ws.send(JSON.stringify({ type: 'reset', data: EPISODE }));
    expect(await reply).toMatchObject({ type: 'error', data: { code: 'CAPACITY_REACHED', status: 503, reason: 'overloaded' } });
    ws.close(1000);
  }, 60_000);
});
