// The cost of a fork on one local worker (workerd, real Durable Objects and D1): an airline episode played for
// 40 agent turns (look-ups of the task's user and reservations, answered by the tools, no model involved), then
// forked at its last step into 8 continuations, timed from the request until all 8 wait for their agent's turn.
// Every fork copies the source's stored rows (nothing is replayed) and reads them into memory on first use, which
// the read-back after the answer includes; the fake provider counts model calls, of which a fork makes none.
import { groupCpuSeconds, startHarness } from '../test/support/load-harness.ts';
import { mockConversation } from '../test/support/fake-openai.ts';
import type { ApiClient } from '../src/client/index.ts';
import { median } from './bench-quantile.ts';

const TURNS = 40;
const FORKS = 8;
const ROUNDS = 5;

const AIRLINE = { domain: 'airline', task_id: '44', llm_user: 'fake-user' } as const;
const LOOKUPS = [
  ['get_user_details', { user_id: 'sophia_silva_7557' }],
  ['get_reservation_details', { reservation_id: 'NM1VX1' }],
  ['get_reservation_details', { reservation_id: 'KC18K6' }],
  ['search_direct_flight', { origin: 'MSP', destination: 'EWR', date: '2024-05-25' }],
] as const;

const lookup = (n: number) => {
  const [name, args] = LOOKUPS[n % LOOKUPS.length]!;
  return { role: 'assistant' as const, content: null, tool_calls: [{ id: `call_${n}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } }] };
};

/** An airline episode after `TURNS` agent turns: its id and the step its agent waits for. */
const playedEpisode = async (client: ApiClient): Promise<{ id: string; atStep: number }> => {
  const { episode_id } = await client.createEpisode({ ...AIRLINE, max_steps: 4 * TURNS });
  for (let n = 0; n < TURNS; n++) await client.step(episode_id, n, lookup(n));
  // The user's request was step 0; each agent turn one more.
  return { id: episode_id, atStep: TURNS + 1 };
};

/**
 * Milliseconds from the fork request until its answer, which comes once the run has started every fork (each has
 * stored its state and waits for its agent), and until all of them were read back; the model calls made meanwhile.
 */
const timedFork = async (client: ApiClient, calls: () => number, source: { id: string; atStep: number }): Promise<{ ms: number; readMs: number; modelCalls: number }> => {
  const before = calls();
  const t0 = performance.now();
  const { episode_ids } = await client.fork({ episode: source.id }, { at_step: source.atStep, n: FORKS });
  const ms = performance.now() - t0;
  const opened = await Promise.all(episode_ids.map((id) => client.episode(id)));
  const readMs = performance.now() - t0;
  if (!opened.every((e) => e.waiting && e.messages.length > 2 * TURNS)) throw new Error("a fork is not in its source's state");
  return { ms, readMs, modelCalls: calls() - before };
};

export const benchFork = async (): Promise<string[]> => {
  const harness = await startHarness(mockConversation());
  try {
    const client = harness.client();
    const source = await playedEpisode(client);
    // The first fork of an isolate loads the airline data and compiles its code: measured apart.
    const first = await timedFork(client, () => harness.fake.requests.length, source);
    // The runtime's CPU time changes less than wall time with other work on the machine (the local worker's process group is its pid).
    const cpuMs = async () => {
      const { user, system } = await groupCpuSeconds(harness.worker().pid, 'workerd');
      return (user + system) * 1000;
    };
    const cpuBefore = await cpuMs();
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await timedFork(client, () => harness.fake.requests.length, source));
    const cpuPerRound = ((await cpuMs()) - cpuBefore) / ROUNDS;
    const spread = (times: number[]): string => `p50 ${median(times).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`;
    const modelCalls = [first, ...rounds].reduce((sum, r) => sum + r.modelCalls, 0);
    return [
      `fork of a ${TURNS}-turn airline episode into ${FORKS} continuations on the local worker (target <= 50 ms until all ${FORKS} are ready), over ${ROUNDS} forks: ` +
        `all ${FORKS} stored and waiting (the answer) ${spread(rounds.map((r) => r.ms))} (first, cold: ${first.ms.toFixed(1)} ms); ` +
        `all ${FORKS} read back ${spread(rounds.map((r) => r.readMs))}; workerd CPU per fork and read-back ${cpuPerRound.toFixed(0)} ms; model calls made by the forks: ${modelCalls}`,
    ];
  } finally {
    await harness.close();
  }
};
