// Forking episodes and simulations over HTTP (POST /v1/episodes/:id/fork, POST /v1/simulations/:id/fork): the
// test plays the agent of the mock task against the scripted user, forks the conversation at a step into a group
// of new episodes, and plays each fork to its grade; forks of a running episode, of a finished one, of a
// simulation, of a fork; refusals for another tenant, a step beyond the episode and a record that does not replay.
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { ApiErrorSchema, EpisodeForkCreatedSchema, EpisodeSchema, EpisodeStepSchema } from '../../src/api/index.ts';
import type { EpisodeForkCreated, EpisodeStep } from '../../src/api/index.ts';
import { SimulationRunSchema } from '../../src/core/schemas/simulation.ts';
import { call, getRun, pyBody } from './support/api.ts';
import { SCRIPT_MODELS } from './support/script.ts';
import { createEpisode } from './support/episodes.ts';

const CREATE_TASK = { tool_calls: [{ id: 'call_create', type: 'function', function: { name: 'create_task', arguments: JSON.stringify({ user_id: 'user_1', title: 'Important Meeting' }) } }] };
const CONFIRM = { content: 'Your task Important Meeting has been created.' };

const stepOk = async (id: string, n: number, message: Record<string, unknown>): Promise<EpisodeStep> => {
  const response = await call(`/v1/episodes/${id}/step`, { body: { step: n, message: { role: 'assistant', ...message } } });
  expect(response.status, await response.clone().text()).toBe(200);
  return EpisodeStepSchema.parse(await response.json());
};

const fork = (path: string, body: Record<string, unknown>, apiKey?: string): Promise<Response> =>
  call(`${path}/fork`, { body, ...(apiKey === undefined ? {} : { headers: { authorization: `Bearer ${apiKey}` } }) });

const forkOk = async (path: string, body: Record<string, unknown>): Promise<EpisodeForkCreated> => {
  const response = await fork(path, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return EpisodeForkCreatedSchema.parse(await pyBody(response));
};

const episodeOf = async (id: string) => EpisodeSchema.parse(await pyBody(await call(`/v1/episodes/${id}`)));

/** Plays the gold actions from the agent's first turn: the task created, then confirmed; the user stops. */
const playGold = async (id: string): Promise<EpisodeStep> => {
  await stepOk(id, 0, CREATE_TASK);
  return stepOk(id, 1, CONFIRM);
};

const graded = async (id: string) => {
  const episode = await vi.waitFor(async () => {
    const read = await episodeOf(id);
    expect(read.status).toBe('done');
    return read;
  }, { timeout: 20_000, interval: 100 });
  return SimulationRunSchema.parse(await pyBody(await call(`/v1/simulations/${episode.simulation_id}`)));
};

const otherTenantKey = async (): Promise<string> => {
  const key = await call('/v1/admin/keys', { body: { tenant: 'forks-other', name: 'other' } });
  return ((await key.json()) as { key: string }).key;
};

describe('episode forks', () => {
  it('8 forks of a running episode at the agent\'s first turn start with its messages and, played with the gold actions, all score 1.0', async () => {
    const source = await createEpisode({ llm_user: SCRIPT_MODELS.user });
    // Step 0 was the user's request; the episode waits for its step 1, the agent's first turn.
    const group = await forkOk(`/v1/episodes/${source.episode_id}`, { at_step: 1, n: 8 });
    expect(group.forked_from).toEqual({ episode_id: source.episode_id, at_step: 1 });
    expect(group.episode_ids).toHaveLength(8);
    expect(new Set(group.episode_ids).size).toBe(8);
    expect((await getRun(group.run_id)).counts.total).toBe(8);
    for (const id of group.episode_ids) {
      const opened = await episodeOf(id);
      expect(opened).toMatchObject({ status: 'running', step: 0, waiting: true, done: false });
      expect(opened.messages).toEqual(source.observation.messages);
    }
    const ends = await Promise.all(group.episode_ids.map(playGold));
    for (const end of ends) expect(end).toMatchObject({ done: true, termination_reason: 'user_stop', reward_info: { reward: 1 } });
    const simulation = await graded(group.episode_ids[0]!);
    expect(simulation.info).toMatchObject({ forked_from: { episode_id: source.episode_id, at_step: 1 } });
    expect(simulation.reward_info!.reward.value).toBe(1);
    // The source itself is untouched by its forks: it still waits for its own step 0.
    expect(await episodeOf(source.episode_id)).toMatchObject({ status: 'running', step: 0, waiting: true });
  });

  it('a finished episode forks from its simulation in D1, after its tool call; a fork of that fork forks again', async () => {
    const source = await createEpisode({ llm_user: SCRIPT_MODELS.user });
    await playGold(source.episode_id);
    const sourceSimulation = await graded(source.episode_id);
    // Step 1 was the agent's create_task (its result recorded): at step 2 the agent owes the confirmation.
    const [first] = (await forkOk(`/v1/episodes/${source.episode_id}`, { at_step: 2 })).episode_ids;
    const opened = await episodeOf(first!);
    expect(opened.messages).toHaveLength(4);
    expect(opened.messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_create' });
    // Forking the fork (running) at the same step, then finishing both: the task was created once in each.
    const [second] = (await forkOk(`/v1/episodes/${first}`, { at_step: 2 })).episode_ids;
    for (const id of [first!, second!]) expect(await stepOk(id, 0, CONFIRM)).toMatchObject({ done: true, reward_info: { reward: 1 } });
    const forkOfFork = await graded(second!);
    expect(forkOfFork.info).toMatchObject({ forked_from: { episode_id: first, at_step: 2 } });
    expect(forkOfFork.messages!.slice(0, 4).map((m) => [m.role, m.content])).toEqual(sourceSimulation.messages!.slice(0, 4).map((m) => [m.role, m.content]));
  });

  it('a simulation forks by its id, its state rebuilt by replaying its tool calls; a result that does not replay is 409 naming the step', async () => {
    const source = await createEpisode({ llm_user: SCRIPT_MODELS.user });
    await playGold(source.episode_id);
    const simulation = await graded(source.episode_id);
    const group = await forkOk(`/v1/simulations/${simulation.id}`, { at_step: 2, n: 2 });
    expect(group.forked_from).toEqual({ simulation_id: simulation.id, at_step: 2 });
    for (const id of group.episode_ids) expect(await stepOk(id, 0, CONFIRM)).toMatchObject({ done: true, reward_info: { reward: 1 } });
    expect((await graded(group.episode_ids[1]!)).info).toMatchObject({ forked_from: { simulation_id: simulation.id, at_step: 2 } });

    // The recorded create_task result altered in D1: replaying step 1 gives another one.
    const toolIdx = simulation.messages!.findIndex((m) => m.role === 'tool');
    const row = await env.DB.prepare('SELECT body FROM messages WHERE simulation_id = ? AND idx = ?').bind(simulation.id, toolIdx).first<{ body: string }>();
    await env.DB.prepare('UPDATE messages SET body = ? WHERE simulation_id = ? AND idx = ?').bind(row!.body.replace('Important Meeting', 'Unimportant Meeting'), simulation.id, toolIdx).run();
    const runs = await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>();
    const mismatch = await fork(`/v1/simulations/${simulation.id}`, { at_step: 2 });
    expect(mismatch.status).toBe(409);
    expect(ApiErrorSchema.parse(await mismatch.json()).error.message).toMatch(/^Replaying step 1 differs from the record: tool call call_create returned/);
    // Before the altered step it still forks; the refused fork created nothing.
    expect((await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>())!.n).toBe(runs!.n);
    await forkOk(`/v1/simulations/${simulation.id}`, { at_step: 1 });
  });

  it('a step beyond the episode is 400 naming at_step; bad bodies are 400 naming their field and create nothing', async () => {
    const source = await createEpisode({ llm_user: SCRIPT_MODELS.user });
    const runs = await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>();
    const beyond = await fork(`/v1/episodes/${source.episode_id}`, { at_step: 2 });
    expect(beyond.status).toBe(400);
    expect(ApiErrorSchema.parse(await beyond.json()).error).toMatchObject({ code: 'invalid_request', issues: [{ path: 'at_step', message: 'at_step 2 is beyond the episode: it has steps 0 to 1' }] });
    for (const [body, field] of [[{ at_step: 1, n: 65 }, 'n'], [{ at_step: 1, n: 0 }, 'n'], [{ at_step: -1 }, 'at_step'], [{}, 'at_step'], [{ at_step: 1, turn: 2 }, ''], [{ at_step: 1, agent: 'robot' }, 'agent']] as const) {
      const response = await fork(`/v1/episodes/${source.episode_id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const { issues } = ApiErrorSchema.parse(await response.json()).error;
      expect(issues!.map((i) => i.path)).toContain(field);
    }
    expect((await env.DB.prepare('SELECT count(*) AS n FROM runs').first<{ n: number }>())!.n).toBe(runs!.n);
  });

  it('an OpenEnv reset with fork_of opens one fork, and a batch with fork_of a group of n, each played to 1.0', async () => {
    const source = await createEpisode({ llm_user: SCRIPT_MODELS.user });
    const fork_of = { episode_id: source.episode_id, at_step: 1 };
    const reset = await call('/openenv/reset', { body: { fork_of } });
    expect(reset.status, await reset.clone().text()).toBe(200);
    const opened = (await pyBody(reset)) as { observation: { episode_id: string; step: number; messages: unknown[]; tools: unknown[] }; done: boolean };
    expect(opened.done).toBe(false);
    expect(opened.observation).toMatchObject({ step: 0, messages: source.observation.messages });
    expect(opened.observation.tools.length).toBeGreaterThan(0);
    const batch = await call('/v1/episodes/batch', { body: { fork_of, n: 3 } });
    expect(batch.status, await batch.clone().text()).toBe(201);
    const group = EpisodeForkCreatedSchema.parse(await pyBody(batch));
    expect(group).toMatchObject({ forked_from: fork_of });
    for (const id of [opened.observation.episode_id, ...group.episode_ids]) expect((await playGold(id)).reward_info).toMatchObject({ reward: 1 });
    // A batch's fork body is held to its own schema: its fields named.
    const bad = await call('/v1/episodes/batch', { body: { fork_of: { episode_id: source.episode_id }, n: 3 } });
    expect(bad.status).toBe(400);
    expect(ApiErrorSchema.parse(await bad.json()).error.issues!.map((i) => i.path)).toEqual(['fork_of.at_step']);
  });

  it("another tenant's episode or simulation is 404, as is an unknown one", async () => {
    const source = await createEpisode({ llm_user: SCRIPT_MODELS.user });
    await playGold(source.episode_id);
    const simulation = await graded(source.episode_id);
    const other = await otherTenantKey();
    for (const path of [`/v1/episodes/${source.episode_id}`, `/v1/simulations/${simulation.id}`]) {
      const foreign = await fork(path, { at_step: 1 }, other);
      expect(foreign.status, path).toBe(404);
    }
    const asOther = { headers: { authorization: `Bearer ${other}` } };
    expect((await call('/openenv/reset', { body: { fork_of: { episode_id: source.episode_id, at_step: 1 } }, ...asOther })).status).toBe(404);
    expect((await call('/v1/episodes/batch', { body: { fork_of: { episode_id: source.episode_id, at_step: 1 }, n: 2 }, ...asOther })).status).toBe(404);
    expect((await fork('/v1/simulations/no-such-simulation', { at_step: 0 })).status).toBe(404);
    expect((await fork('/v1/episodes/bm8tc3VjaA', { at_step: 0 })).status).toBe(404);
  });
});
