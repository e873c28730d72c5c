// Long episodes through the queue path: with every slot of the provider cap taken, an episode cannot produce its
// turns in place, so the Queue consumer produces them once a slot frees. A 40-turn airline conversation and a
// banking_knowledge full_kb conversation (its ~870 KB policy in every turn request, read over RPC from the
// episode object) both finish: the queue message names only the episode and the step, and each turn request
// crosses the Durable Object call within Cloudflare's RPC limit.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { episodeKey } from '../../src/worker/episode/launch.ts';
import { call, pyBody, startRun, waitForRun } from './support/api.ts';
import { LONG_CONVERSATION_TURNS, SCRIPT_MODELS, scriptedRun } from './support/script.ts';

/** Serialized RPC arguments or return values: 32 MiB (scripts/limits/platform.ts cites it). */
const RPC_LIMIT_BYTES = 32 * 1024 * 1024;

const longRun = (domain: string, task_id: string, overrides: Record<string, unknown> = {}) =>
  scriptedRun({ domain, task_ids: [task_id], llm_agent: SCRIPT_MODELS.talkingAgent, llm_user: SCRIPT_MODELS.talkativeUser, llm_judge: SCRIPT_MODELS.judge, ...overrides });

/** Runs `body`'s one episode with the cap full until its first turn waits on the queue; then frees a slot. */
const throughQueue = async (body: unknown, task_id: string) => {
  const gate = env.PROVIDER_GATE.getByName(new URL(env.OPENAI_BASE_URL).host);
  const holders = ['held-0', 'held-1', 'held-2', 'held-3'];
  for (const holder of holders) expect(await gate.acquire(holder, 4)).toBe(true);
  try {
    const runId = await startRun(body);
    const episode = env.EPISODE.getByName(episodeKey(runId, { task_id, trial: 0 }));
    const waiting = await episode.pendingTurn();
    expect(waiting).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Nothing was produced in place: the turn waits for the consumer.
    expect((await episode.pendingTurn())?.step).toBe(waiting!.step);
    await gate.release(holders[0]!);
    const run = await waitForRun(runId, { timeoutMs: 120_000 });
    expect(run.counts).toMatchObject({ done: 1, infra_error: 0 });
    const results = ResultsSchema.parse(await pyBody(await call(`/v1/runs/${runId}/results`)));
    return { simulation: results.simulations[0]!, policy: results.info.environment_info.policy };
  } finally {
    for (const holder of holders.slice(1)) await gate.release(holder);
  }
};

describe('long episodes through the queue', () => {
  it(`a ${LONG_CONVERSATION_TURNS}-turn airline episode finishes`, async () => {
    const { simulation } = await throughQueue(longRun('airline', '0', { max_steps: 200 }), '0');
    expect(simulation.termination_reason).toBe('user_stop');
    expect(simulation.messages!.filter((m) => m.role === 'user')).toHaveLength(LONG_CONVERSATION_TURNS);
  }, 180_000);

  it('a banking_knowledge full_kb episode finishes, its whole-KB policy in every turn request', async () => {
    const { simulation, policy } = await throughQueue(longRun('banking_knowledge', 'task_004', { retrieval_config: 'full_kb', max_steps: 200 }), 'task_004');
    expect(simulation.termination_reason).toBe('user_stop');
    expect(simulation.messages!.filter((m) => m.role === 'user')).toHaveLength(LONG_CONVERSATION_TURNS);
    // Every agent turn request carries this policy (the whole knowledge base) across the RPC.
    const policyBytes = new TextEncoder().encode(policy).length;
    expect(policyBytes).toBeGreaterThan(500_000);
    expect(policyBytes).toBeLessThan(RPC_LIMIT_BYTES);
  }, 180_000);
});
