// Agent-driven episodes over HTTP (the reference's AgentGymEnv): the test plays the agent of mock tasks against
// the scripted user, step by step, and checks observations, grading, exactly-once steps and idle expiry.
import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { episodeOfId } from '../../src/worker/episode/launch.ts';
import { EpisodeSchema, EpisodeStepSchema, ApiErrorSchema, RunEpisodesSchema } from '../../src/api/index.ts';
import type { EpisodeCreated, EpisodeStep } from '../../src/api/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { pyFloat } from '../../src/core/py/index.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';
import { createEpisode, idlePastLimit } from './support/episodes.ts';

const create = (body: Record<string, unknown> = {}): Promise<EpisodeCreated> => createEpisode({ llm_user: SCRIPT_MODELS.user, ...body });

const step = (id: string, n: number, message: Record<string, unknown>): Promise<Response> =>
  call(`/v1/episodes/${id}/step`, { body: { step: n, message: { role: 'assistant', ...message } } });

const stepOk = async (id: string, n: number, message: Record<string, unknown>): Promise<EpisodeStep> => {
  const response = await step(id, n, message);
  expect(response.status, await response.clone().text()).toBe(200);
  return EpisodeStepSchema.parse(await response.json());
};

const toolCall = (name: string, args: Record<string, unknown>, id = `call_${name}`) => ({
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});

const CREATE_TASK = toolCall('create_task', { user_id: 'user_1', title: 'Important Meeting' });

describe('agent-driven episodes', () => {
  it('plays the gold actions of a mock task and scores 1.0; a repeated step gets the same answer', async () => {
    const episode = await create();
    expect(episode).toMatchObject({ step: 0, done: false });
    // The greeting and the simulated user's first message, in chat-completions format.
    expect(episode.observation.messages).toEqual([
      { role: 'assistant', content: 'Hi! How can I help you today?', tool_calls: null },
      { role: 'user', content: 'Hi, please create a task called Important Meeting for user_1.' },
    ]);
    const toolNames = (episode.observation.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(toolNames).toContain('create_task');
    expect(toolNames.at(-1)).toBe('done');
    expect(episode.observation.policy).toContain('Mock Domain Policy');

    const afterTool = await stepOk(episode.episode_id, 0, CREATE_TASK);
    expect(afterTool).toMatchObject({ step: 1, done: false });
    expect(afterTool.observation.messages).toHaveLength(1);
    expect(afterTool.observation.messages[0]).toMatchObject({ role: 'tool', tool_call_id: 'call_create_task' });
    // Exactly once: the same step again answers the same; another message for it is a conflict.
    expect(await stepOk(episode.episode_id, 0, CREATE_TASK)).toEqual(afterTool);
    const conflict = await step(episode.episode_id, 0, { content: 'something else' });
    expect(conflict.status).toBe(409);
    expect(ApiErrorSchema.parse(await conflict.json()).error.message).toBe('Step 0 was already answered with another message');

    const last = await stepOk(episode.episode_id, 1, { content: 'Your task Important Meeting has been created.' });
    expect(last).toMatchObject({ step: 2, done: true, termination_reason: 'user_stop' });
    expect(last.observation.messages).toEqual([{ role: 'user', content: 'Thanks! ###STOP###' }]);
    expect(last.reward_info).toMatchObject({ reward: 1 });

    // A done episode answers an exact repeat of its final step with its end again, and every other step with 409
    // naming that final step: the next one, the final one with another message, an earlier one even unchanged.
    // Once finished, its object keeps the final step for that.
    const object = env.EPISODE.getByName(episodeOfId(episode.episode_id)!.key);
    await vi.waitFor(async () => expect((await object.snapshot()).phase).toBe('finished'));
    expect(await stepOk(episode.episode_id, 1, { content: 'Your task Important Meeting has been created.' })).toEqual(last);
    for (const [n, message] of [[2, { content: 'Anything else?' }], [1, { content: 'Something else.' }], [0, CREATE_TASK], [7, { content: 'Hi' }]] as const) {
      const over = await step(episode.episode_id, n, message);
      expect(over.status, `step ${n}`).toBe(409);
      expect(ApiErrorSchema.parse(await over.json()).error).toMatchObject({
        code: 'conflict',
        message: 'The episode is done: its final step was 1, and only that step sent again unchanged is answered',
      });
    }

    const state = EpisodeSchema.parse(await (await call(`/v1/episodes/${episode.episode_id}`)).json());
    expect(state).toMatchObject({ status: 'done', step: 2, done: true, termination_reason: 'user_stop', run_id: episode.run_id });
    expect(state.reward_info).toMatchObject({ reward: 1 });

    // The episode is a run of the external agent: its results file says so and holds the simulation.
    const run = await waitForRun(episode.run_id);
    expect(run.counts).toMatchObject({ done: 1, passed: 1 });
    const results = ResultsSchema.parse(await pyBody(await call(`/v1/runs/${episode.run_id}/results`)));
    expect(results.info.agent_info).toMatchObject({ implementation: 'external', llm: null });
    expect(results.simulations[0]!.reward_info!.reward).toEqual(pyFloat(1));
  });

  it('a wrong action scores 0; `done` ends the episode as an agent stop', async () => {
    const episode = await create();
    const wrong = await stepOk(episode.episode_id, 0, toolCall('create_task', { user_id: 'user_1', title: 'Another Meeting' }));
    expect(wrong.done).toBe(false);
    const stopped = await stepOk(episode.episode_id, 1, toolCall('done', {}));
    expect(stopped).toMatchObject({ done: true, termination_reason: 'agent_stop' });
    expect(stopped.reward_info).toMatchObject({ reward: 0 });
  });

  it('max_steps and max_errors end the episode as the reference orchestrator does', async () => {
    const stepsUntilDone = async (episodeId: string, message: (n: number) => Record<string, unknown>): Promise<EpisodeStep> => {
      for (let n = 0; n < 20; n++) {
        const answer = await stepOk(episodeId, n, message(n));
        if (answer.done) return answer;
      }
      throw new Error('the episode did not end');
    };
    const long = await create({ max_steps: 6 });
    const capped = await stepsUntilDone(long.episode_id, (n) => toolCall('get_users', {}, `call_${n}`));
    expect(capped).toMatchObject({ termination_reason: 'max_steps' });
    expect(capped.reward_info).toMatchObject({ reward: 0 });

    const clumsy = await create({ max_errors: 2 });
    const failing = await stepsUntilDone(clumsy.episode_id, (n) => toolCall('no_such_tool', {}, `call_${n}`));
    expect(failing).toMatchObject({ termination_reason: 'too_many_errors' });
    expect(failing.reward_info).toMatchObject({ reward: 0 });
  });

  it('refuses an invalid message, a step not waited for and one from the future, changing nothing', async () => {
    const episode = await create();
    const invalid = await step(episode.episode_id, 0, { content: null });
    expect(invalid.status).toBe(400);
    expect(ApiErrorSchema.parse(await invalid.json()).error.issues?.[0]?.message).toMatch(/^Invalid action with error: /);
    const early = await step(episode.episode_id, 3, { content: 'hello' });
    expect(early.status).toBe(409);
    expect(ApiErrorSchema.parse(await early.json()).error.message).toContain('waits for step 0');
    const unknownField = await call(`/v1/episodes/${episode.episode_id}/step`, { body: { step: 0, message: { role: 'assistant', content: 'x' }, reward: 1 } });
    expect(unknownField.status).toBe(400);
    // Still at step 0: the first valid message applies.
    expect((await stepOk(episode.episode_id, 0, CREATE_TASK)).step).toBe(1);
  });

  it('concurrent submissions of the same step apply it once', async () => {
    const episode = await create();
    const answers = await Promise.all([step(episode.episode_id, 0, CREATE_TASK), step(episode.episode_id, 0, CREATE_TASK)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const state = EpisodeSchema.parse(await (await call(`/v1/episodes/${episode.episode_id}`)).json());
    expect(state.step).toBe(1);
    expect(state.messages.filter((m) => m['role'] === 'tool')).toHaveLength(1);
  });

  it('an episode left idle past the limit ends as a timeout and scores 0', async () => {
    const episode = await create();
    await idlePastLimit(episode.episode_id);
    const state = EpisodeSchema.parse(await (await call(`/v1/episodes/${episode.episode_id}`)).json());
    expect(state).toMatchObject({ status: 'done', termination_reason: 'timeout' });
    expect(state.reward_info).toMatchObject({ reward: 0 });
    // No step was applied before the timeout: every step is refused.
    const late = await step(episode.episode_id, 0, CREATE_TASK);
    expect(late.status).toBe(409);
    expect(ApiErrorSchema.parse(await late.json()).error.message).toBe('The episode is done and takes no more steps');
  });

  it('a step with no answer in time gets 503 not_ready; the same step again gets the answer once there is one', async () => {
    const episode = await create();
    await stepOk(episode.episode_id, 0, CREATE_TASK);
    // D1 refuses this run's simulations, as in an outage: the graded episode's simulation stays with its run.
    await env.DB.exec(
      `CREATE TRIGGER hold_simulations BEFORE INSERT ON simulations WHEN NEW.run_id = '${episode.run_id}' BEGIN SELECT RAISE(ABORT, 'unavailable'); END`,
    );
    const last = { content: 'Your task Important Meeting has been created.' };
    const held = await step(episode.episode_id, 1, last);
    expect(held.status, await held.clone().text()).toBe(503);
    expect(held.headers.get('retry-after')).toBe('5');
    expect(ApiErrorSchema.parse(await held.json()).error).toMatchObject({ code: 'not_ready', message: `Episode ${episode.episode_id} has no answer to step 1 yet; send the same step again` });
    // Asking again while D1 still refuses answers the same, bounded.
    expect((await step(episode.episode_id, 1, last)).status).toBe(503);
    await env.DB.exec('DROP TRIGGER hold_simulations');
    // The run's recovery alarm writes what it holds; the same step then gets the graded end.
    expect(await runDurableObjectAlarm(env.RUN.getByName(episode.run_id))).toBe(true);
    const graded = await stepOk(episode.episode_id, 1, last);
    expect(graded).toMatchObject({ step: 2, done: true, termination_reason: 'user_stop' });
    expect(graded.reward_info).toMatchObject({ reward: 1 });
  });

  it('bad requests name the field; unknown or foreign episodes are 404', async () => {
    for (const [body, path] of [
      [{ domain: 'mock' }, 'task_id'],
      [{ domain: 'mock', task_id: 'create_task_1', role: 'judge' }, 'role'],
      [{ domain: 'mock', task_id: 'create_task_1', role: 'user', solo: true }, 'solo'],
      [{ domain: 'mock', task_id: 'no_such_task' }, 'task_ids'],
      [{ domain: 'nowhere', task_id: 'x' }, 'domain'],
      // No request starts unbounded work: the operator's limits apply as to any run.
      [{ domain: 'mock', task_id: 'create_task_1', max_steps: 1_000_000 }, 'max_steps'],
      [{ domain: 'mock', task_id: 'create_task_1', llm_args_user: { max_tokens: 10_000_000 } }, 'llm_args_user.max_tokens'],
    ] as const) {
      const response = await call('/v1/episodes', { body });
      expect(response.status).toBe(400);
      expect(ApiErrorSchema.parse(await response.json()).error.issues?.map((i) => i.path)).toContain(path);
    }
    expect((await call('/v1/episodes/not-an-episode')).status).toBe(404);
    // An episode of a run of built-in participants is listed, but nobody steps it from outside.
    const runId = await startRun(scriptedRun({ task_ids: ['create_task_1'], task_split_name: null }));
    const listed = RunEpisodesSchema.parse(await (await call(`/v1/runs/${runId}/episodes`)).json());
    expect(listed.episodes.map((e) => e.task_id)).toEqual(['create_task_1']);
    await waitForRun(runId);
    const builtIn = await step(listed.episodes[0]!.episode_id, 0, { content: 'hello' });
    expect(builtIn.status).toBe(409);
    expect(ApiErrorSchema.parse(await builtIn.json()).error.message).toBe('No participant of this episode is played from outside');
    const episode = await create();
    const key = await call('/v1/admin/keys', { body: { tenant: 'episodes-other', name: 'other' } });
    const other = ((await key.json()) as { key: string }).key;
    const foreign = await call(`/v1/episodes/${episode.episode_id}`, { headers: { authorization: `Bearer ${other}` } });
    expect(foreign.status).toBe(404);
    const foreignStep = await call(`/v1/episodes/${episode.episode_id}/step`, { headers: { authorization: `Bearer ${other}` }, body: { step: 0, message: { role: 'assistant', content: 'hi' } } });
    expect(foreignStep.status).toBe(404);
  });
});

describe('user-driven episodes (the caller plays the user against the built-in agent)', () => {
  it('sees the user simulator view, uses the user tools, stops with ###STOP### and is graded', async () => {
    const episode = await create({ role: 'user', llm_agent: SCRIPT_MODELS.agent, llm_user: undefined });
    expect(episode).toMatchObject({ step: 0, done: false });
    // The agent's greeting, as the user simulator's model sees it (roles flipped).
    expect(episode.observation.messages).toEqual([{ role: 'user', content: 'Hi! How can I help you today?' }]);
    expect(episode.observation.policy).toBeUndefined();
    expect(episode.observation.instructions).toMatch(/^# User Simulation Guidelines[\s\S]*<scenario>[\s\S]*Important Meeting[\s\S]*<\/scenario>$/);
    expect((episode.observation.tools ?? []).map((t) => (t as { function: { name: string } }).function.name)).toEqual(['check_notifications', 'dismiss_notification']);

    // A user tool call comes back to the user with its result.
    const checked = await stepOk(episode.episode_id, 0, toolCall('check_notifications', {}, 'call_check'));
    expect(checked).toMatchObject({ step: 1, done: false });
    expect(checked.observation.messages).toEqual([expect.objectContaining({ role: 'tool', tool_call_id: 'call_check' })]);
    expect(String(checked.observation.messages[0]!['content'])).toContain('notif_1');

    // The built-in agent answers in the same request: its tool calls stay hidden, its reply is what the user sees.
    const asked = await stepOk(episode.episode_id, 1, { content: 'Please create a task called Important Meeting for user_1.' });
    expect(asked).toMatchObject({ step: 2, done: false });
    expect(asked.observation.messages).toEqual([{ role: 'user', content: 'Your task Important Meeting has been created.' }]);

    const last = await stepOk(episode.episode_id, 2, { content: 'Thanks! ###STOP###' });
    expect(last).toMatchObject({ step: 3, done: true, termination_reason: 'user_stop' });
    expect(last.reward_info).toMatchObject({ reward: 1 });
    const state = EpisodeSchema.parse(await (await call(`/v1/episodes/${episode.episode_id}`)).json());
    expect(state).toMatchObject({ status: 'done', step: 3, done: true });
    expect(state.messages.at(-1)).toEqual({ role: 'assistant', content: 'Thanks! ###STOP###', tool_calls: null });

    const results = ResultsSchema.parse(await pyBody(await call(`/v1/runs/${episode.run_id}/results`)));
    expect(results.info.user_info).toMatchObject({ implementation: 'external_user', llm: null, llm_args: null });
    expect(results.info.agent_info).toMatchObject({ implementation: 'llm_agent', llm: SCRIPT_MODELS.agent });
  });
});
