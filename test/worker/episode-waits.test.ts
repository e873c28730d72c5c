// A caller waiting for an episode (the step API's answer) is told by the episode's object when the episode moves,
// not left to read it again and again: the answer arrives as soon as the step that answers it is applied. Every
// wait is bounded (at most LIMIT_EPISODE_WAIT_SECONDS, 5 in tests; at most MAX_WAITERS per object), and one
// whose object is reset meanwhile asks the new instance.
import { env } from 'cloudflare:workers';
import { abortAllDurableObjects } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { PendingTurn, TurnResult } from '../../src/core/episode/turn.ts';
import { episodeKey, episodeOfId } from '../../src/worker/episode/launch.ts';
import type { EpisodeHandle } from '../../src/worker/episode/handle.ts';
import { MAX_WAITERS } from '../../src/worker/episode/waiters.ts';
import { settle } from '../../src/worker/episode/waits.ts';
import { SCRIPT_MODELS } from './support/script.ts';
import { createEpisode } from './support/episodes.ts';

const WAIT_LIMIT_MS = 5_000;
/** Far less than the wait limit: an answer told of the change arrives well within it. */
const PROMPTLY_MS = 1_500;

const AGENT_GREETING = { kind: 'response', content: 'Hello! How can I help you?', tool_calls: [] } as const;
const USER_REPLY: TurnResult = { kind: 'response', content: 'Please create a task called Important Meeting for user_1.', tool_calls: [] };

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An episode whose caller (the agent) has spoken: it waits for the user's reply, which the test produces. */
const awaitingUser = async (): Promise<{ handle: EpisodeHandle; pending: PendingTurn }> => {
  const created = await createEpisode({ llm_user: SCRIPT_MODELS.user });
  const handle: EpisodeHandle = { ...episodeOfId(created.episode_id)!, external: true, role: 'agent' };
  const applied = await env.EPISODE.getByName(handle.key).submitExternalTurn(0, AGENT_GREETING, { produceNext: true });
  expect(applied).toMatchObject({ status: 'applied', step: 0, pending: { role: 'user' } });
  return { handle, pending: applied.pending! };
};

/** Tracks whether a promise has settled yet. */
const watched = <T>(promise: Promise<T>): { promise: Promise<T>; done: () => boolean } => {
  let done = false;
  void promise.finally(() => (done = true)).catch(() => undefined);
  return { promise, done: () => done };
};

describe('waiting for an episode', () => {
  it("a waiter is woken by the step that answers it, without waiting out a poll or its bound", async () => {
    const { handle, pending } = await awaitingUser();
    const stub = env.EPISODE.getByName(handle.key);
    const waiter = watched(stub.awaitTurn(1, false, 60_000));
    await pause(300);
    // The agent's turn is not waited for while the user's reply is outstanding.
    expect(waiter.done()).toBe(false);
    const stepped = Date.now();
    expect(await stub.submitTurn(pending.step, USER_REPLY)).toMatchObject({ status: 'applied', next: 'turn' });
    expect(await waiter.promise).toMatchObject({ waiting: true, step: 1, done: false });
    expect(Date.now() - stepped).toBeLessThan(PROMPTLY_MS);
  });

  it('a wait ends at its bound, at most the wait limit, with the episode as it stands', async () => {
    const { handle } = await awaitingUser();
    const stub = env.EPISODE.getByName(handle.key);
    let started = Date.now();
    expect(await stub.awaitTurn(1, false, 200)).toMatchObject({ waiting: false, step: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    // A bound that is not a number is none.
    started = Date.now();
    expect(await stub.awaitTurn(1, false, Number.NaN)).toMatchObject({ waiting: false, step: 1 });
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    // A longer bound asked for is cut to the wait limit.
    started = Date.now();
    expect(await stub.awaitTurn(1, false, 600_000)).toMatchObject({ waiting: false, step: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_LIMIT_MS);
    expect(Date.now() - started).toBeLessThan(WAIT_LIMIT_MS + PROMPTLY_MS);
  });

  it('at most MAX_WAITERS wait in one object: one more is answered at once; the others are all woken', async () => {
    const { handle, pending } = await awaitingUser();
    const stub = env.EPISODE.getByName(handle.key);
    const waiters = Array.from({ length: MAX_WAITERS }, () => watched(stub.awaitTurn(1, false, 60_000)));
    await pause(300);
    expect(waiters.filter((waiter) => waiter.done())).toHaveLength(0);
    const started = Date.now();
    expect(await stub.awaitTurn(1, false, 60_000)).toMatchObject({ waiting: false });
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS);
    await stub.submitTurn(pending.step, USER_REPLY);
    for (const view of await Promise.all(waiters.map((waiter) => waiter.promise))) expect(view).toMatchObject({ waiting: true, step: 1 });
  });

  it("a caller whose episode's object is reset while it waits asks the new instance, and is told there", async () => {
    const { handle, pending } = await awaitingUser();
    const settled = watched(settle(env, handle, 1));
    await pause(300);
    await abortAllDurableObjects();
    await pause(300);
    expect(settled.done()).toBe(false);
    const stepped = Date.now();
    await env.EPISODE.getByName(handle.key).submitTurn(pending.step, USER_REPLY);
    expect(await settled.promise).toMatchObject({ kind: 'live', view: { waiting: true, step: 1 } });
    expect(Date.now() - stepped).toBeLessThan(PROMPTLY_MS);
  });

  it('an episode that never starts is not ready once the wait limit has passed', async () => {
    const ref = { run_id: crypto.randomUUID(), task_id: 'create_task_1', trial: 0 };
    const handle: EpisodeHandle = { ...ref, key: episodeKey(ref.run_id, ref), external: true, role: 'agent' };
    const started = Date.now();
    expect(await settle(env, handle, 0)).toEqual({ kind: 'not_ready' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_LIMIT_MS);
    expect(Date.now() - started).toBeLessThan(WAIT_LIMIT_MS + PROMPTLY_MS);
  });
});
