// Who checks on a running episode. One played from outside watches itself with its own alarm, so an open
// episode waiting for its client is not woken by its run (whose alarm would check it every RECOVERY_MS, keeping
// both objects in memory for as long as the episode stays open); a run of built-in participants keeps its check.
import { env } from 'cloudflare:workers';
import { abortAllDurableObjects, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { episodeOfId } from '../../src/worker/episode/launch.ts';
import { TURN_WATCHDOG_MS } from '../../src/worker/episode/production.ts';
import { limits } from '../../src/worker/tenancy/limits.ts';
import { EpisodeSchema, EpisodeStepSchema, RunEpisodesSchema } from '../../src/api/index.ts';
import { call, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';
import { createEpisode } from './support/episodes.ts';

const alarmOf = (stub: DurableObjectStub): Promise<number | null> => runInDurableObject(stub, (_instance: unknown, state) => state.storage.getAlarm());

const keyOf = (episodeId: string): string => episodeOfId(episodeId)!.key;

describe('episode watch', () => {
  it('an open agent-driven episode leaves its run without an alarm; its own alarm is its idle limit', async () => {
    const episode = await createEpisode({ llm_user: SCRIPT_MODELS.user });
    const stepped = await call(`/v1/episodes/${episode.episode_id}/step`, {
      body: { step: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_users', arguments: '{}' } }] } },
    });
    expect(stepped.status, await stepped.clone().text()).toBe(200);
    expect(EpisodeStepSchema.parse(await stepped.json())).toMatchObject({ step: 1, done: false });
    expect(await alarmOf(env.RUN.getByName(episode.run_id))).toBeNull();
    // The idle limit (LIMIT_EXTERNAL_TURN_TTL_SECONDS), counted from the ask, which came before this read.
    const own = await alarmOf(env.EPISODE.getByName(keyOf(episode.episode_id)));
    expect(own).not.toBeNull();
    expect(own!).toBeLessThanOrEqual(Date.now() + limits(env).LIMIT_EXTERNAL_TURN_TTL_SECONDS * 1000);
  });

  it("a built-in turn of an episode played from outside is watched by the episode's alarm: one lost is asked for again", async () => {
    // The caller plays the user; the built-in agent's turn follows each of its messages.
    const episode = await createEpisode({ role: 'user', llm_agent: SCRIPT_MODELS.agent });
    const stub = env.EPISODE.getByName(keyOf(episode.episode_id));
    // The user's message is applied and the agent's turn handed to the caller, which never produces it (as if
    // the request producing it were lost).
    const askedAt = Date.now();
    const applied = await stub.submitExternalTurn(0, { kind: 'response', content: 'Please create a task called Important Meeting for user_1.', tool_calls: [] }, { produceNext: true });
    expect(applied).toMatchObject({ status: 'applied', step: 0, pending: { role: 'agent' } });
    expect(await alarmOf(env.RUN.getByName(episode.run_id))).toBeNull();
    // The watchdog, not the idle limit of the user's turn.
    const watchdog = await alarmOf(stub);
    expect(watchdog).not.toBeNull();
    expect(watchdog!).toBeGreaterThanOrEqual(askedAt + TURN_WATCHDOG_MS);
    // A new instance (the old one's memory of the ask is gone): its alarm asks for the turn again, and the agent answers.
    await abortAllDurableObjects();
    expect(await runDurableObjectAlarm(env.EPISODE.getByName(keyOf(episode.episode_id)))).toBe(true);
    let state = EpisodeSchema.parse(await (await call(`/v1/episodes/${episode.episode_id}`)).json());
    for (let i = 0; i < 100 && state.messages.at(-1)?.['role'] !== 'user'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = EpisodeSchema.parse(await (await call(`/v1/episodes/${episode.episode_id}`)).json());
    }
    // The user's view: the agent's reply comes as the other side's message.
    expect(state.messages.at(-1)).toEqual({ role: 'user', content: 'Your task Important Meeting has been created.' });
  });

  it('a run of built-in participants keeps its check while its episodes run', async () => {
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, task_ids: ['create_task_1'], task_split_name: null }));
    const listed = RunEpisodesSchema.parse(await (await call(`/v1/runs/${runId}/episodes`)).json());
    expect(listed.episodes).toHaveLength(1);
    expect(await alarmOf(env.RUN.getByName(runId))).not.toBeNull();
    expect((await waitForRun(runId)).status).toBe('completed');
  });
});
