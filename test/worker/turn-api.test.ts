// The episode's turn interface: a turn result for step N is applied exactly once — a repeat gets the stored
// outcome, another result for an answered step or a step not waited for is refused — and the conversation goes
// on from the applied result, whoever produced it.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py/index.ts';
import { episodeKey } from '../../src/worker/episode/launch.ts';
import type { PendingTurn, TurnResult } from '../../src/core/episode/turn.ts';
import { call, startRun, waitForRun } from './support/api.ts';
import { SCRIPT_MODELS, scriptedRun } from './support/script.ts';

const agentTurn = async (key: string): Promise<PendingTurn> => {
  const stub = env.EPISODE.getByName(key);
  for (let i = 0; i < 200; i++) {
    const turn = await stub.pendingTurn();
    if (turn?.role === 'agent') return turn;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`episode ${key} never waited for an agent turn`);
};

const answer = (content: string): TurnResult => ({ kind: 'response', content, tool_calls: [], cost: 0.5 });

describe('EpisodeDO turns', () => {
  it('applies a turn result once, returns the stored outcome on a repeat and refuses conflicting or unexpected ones', async () => {
    // The slow agent keeps the built-in producer busy for 400 ms, so this test answers the agent's turn first.
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, task_ids: ['create_task_1'] }));
    const key = episodeKey(runId, { task_id: 'create_task_1', trial: 0 });
    const stub = env.EPISODE.getByName(key);
    const turn = await agentTurn(key);
    expect(turn).toMatchObject({ episode: key, run_id: runId, task_id: 'create_task_1', trial: 0, model: SCRIPT_MODELS.slowAgent });
    const request = parsePyJson(turn.request) as { messages: { role: string; content: string }[]; tools: unknown[] };
    expect(request.messages[0]!.role).toBe('system');
    expect(request.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(request.tools.length).toBeGreaterThan(0);

    expect(await stub.submitTurn(turn.step + 1, answer('too early'))).toMatchObject({ status: 'refused', reason: 'not_pending', pending_step: turn.step });
    const applied = await stub.submitTurn(turn.step, answer('Your task is created.'));
    expect(applied).toEqual({ status: 'applied', step: turn.step, next: 'turn', next_step: turn.step + 1 });
    expect(await stub.submitTurn(turn.step, answer('Your task is created.'))).toEqual(applied);
    expect(await stub.submitTurn(turn.step, answer('something else'))).toMatchObject({ status: 'refused', reason: 'conflict' });
    expect(await stub.submitTurn(turn.step - 1, answer('an old turn answered again'))).toMatchObject({ status: 'refused', reason: 'conflict' });

    const run = await waitForRun(runId);
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0 });
    const results = parsePyJson(await (await call(`/v1/runs/${runId}/results`)).text()) as {
      simulations: { messages: { role: string; content: string | null }[] }[];
    };
    const agentTexts = results.simulations[0]!.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
    // The greeting, then the applied answer: the built-in producer's late answer (a tool call) was refused.
    expect(agentTexts).toEqual(['Hi! How can I help you today?', 'Your task is created.']);
    // The finished episode reset its instance, so the call goes through a new stub.
    expect(await env.EPISODE.getByName(key).submitTurn(turn.step + 5, answer('after the end'))).toMatchObject({ status: 'refused', reason: 'not_running' });
  });

  it('takes a producer-reported failure as a failed attempt: the episode ends as an infrastructure error', async () => {
    const runId = await startRun(scriptedRun({ llm_agent: SCRIPT_MODELS.slowAgent, task_ids: ['create_task_1'] }));
    const key = episodeKey(runId, { task_id: 'create_task_1', trial: 0 });
    const turn = await agentTurn(key);
    expect(await env.EPISODE.getByName(key).submitTurn(turn.step, { kind: 'error', message: 'provider unreachable' })).toEqual({
      status: 'applied', step: turn.step, next: 'finishing', next_step: null,
    });
    const run = await waitForRun(runId);
    expect(run.counts).toMatchObject({ done: 1, infra_error: 1 });
  });
});
