// Forking an episode from its record (core/episode/fork.ts): a 22-step airline episode, played by models that
// replay a recorded conversation, forked at every step, each fork continued by the same recorded answers.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { forkEpisode } from '../../../src/core/episode/fork.ts';
import { startEpisode } from '../../../src/core/episode/machine.ts';
import type { LiveEpisode } from '../../../src/core/episode/machine.ts';
import { step, turnRole } from '../../../src/core/orchestrator/step.ts';
import { completeEpisode } from '../../../src/core/runner/simulation.ts';
import type { SimulationDeps } from '../../../src/core/runner/simulation.ts';
import type { LlmClient, LlmResponse } from '../../../src/core/llm/types.ts';
import { MessageSchema } from '../../../src/core/schemas/message.ts';
import type { Message } from '../../../src/core/schemas/message.ts';
import type { EpisodeState } from '../../../src/core/schemas/episode.ts';
import { dumpsPy, parsePyJson, pyDictHash, pyFloat } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { loaded, sequentialIds, steppingClock } from '../../support/domains.ts';

const airline = await loaded('airline');
const fixture = parsePyJson(await readFile(new URL('../../fixtures/airline-results-regrade.json', import.meta.url), 'utf8')) as unknown as {
  simulations: { task_id: string; messages: unknown[]; termination_reason: string }[];
};
/**
 * A recorded conversation of 22 steps: the user's request, 20 agent turns (19 with tool calls, then its report)
 * and the user's stop (the built-in agent does not end an episode itself).
 */
const recorded = [
  ...fixture.simulations.find((s) => s.task_id === '44' && s.termination_reason === 'agent_stop')!.messages,
  { role: 'user', content: 'Thanks! ###STOP###' },
].map((m) => MessageSchema.parse(m));
const task = airline.data.tasks.find((t) => t.id === '44')!;
const spec = { simulationId: 'fork-source', task, agent: 'llm_agent' as const, trial: 0, seed: 626729 };

/** A model that answers with a role's recorded messages, in order, from its `from`-th one. */
const replaying = (role: 'assistant' | 'user', from = 0): LlmClient => {
  // The greeting is the episode's own opening, no model's answer.
  const answers = recorded.slice(1).filter((m) => m.role === role).slice(from);
  return {
    generate: async (): Promise<LlmResponse> => {
      const next = answers.shift();
      if (next === undefined || (next.role !== 'assistant' && next.role !== 'user')) throw new Error(`no recorded ${role} answer left`);
      return {
        content: next.content,
        toolCalls: (next.tool_calls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: dumpsPy(c.arguments as PyValue) })),
        usage: null,
        cost: 0,
        rawData: null,
        generationTimeSeconds: null,
      };
    },
  };
};

/** Models replaying the record: the agent from its `agentFrom`-th answer, the user from its `userFrom`-th. */
const depsReplaying = (agentFrom = 0, userFrom = 0): SimulationDeps => {
  const model = (client: LlmClient) => ({ client, model: 'recorded', llmArgs: { temperature: pyFloat(0) } });
  return {
    domain: airline.domain,
    data: airline.data,
    guidelines: airline.guidelines,
    agentModel: model(replaying('assistant', agentFrom)),
    userModel: model(replaying('user', userFrom)),
    judge: { recorded: null },
    clock: steppingClock(),
    newId: sequentialIds(),
  };
};

/** Hashes by DB object: a DB is never changed in place (copy-on-write), so one object has one hash. */
const hashed = new WeakMap<object, string>();
const dbHash = (db: unknown): string => {
  let hash = hashed.get(db as object);
  if (hash === undefined) hashed.set(db as object, (hash = pyDictHash(db as PyValue)));
  return hash;
};

const dbHashes = (live: LiveEpisode): [string, string | null] => [dbHash(live.environment.agentDb), live.environment.userDb === null ? null : dbHash(live.environment.userDb)];

/** The state at a step, as the fork must reproduce it. */
interface AtStep {
  readonly trajectory: readonly Message[];
  readonly counters: Pick<EpisodeState, 'step_count' | 'num_errors' | 'from_role' | 'to_role' | 'done'>;
  readonly changes: string;
  readonly hashes: [string, string | null];
}

const atStep = (state: EpisodeState, live: LiveEpisode): AtStep => ({
  trajectory: state.trajectory,
  counters: { step_count: state.step_count, num_errors: state.num_errors, from_role: state.from_role, to_role: state.to_role, done: state.done },
  changes: dumpsPy(state.environment as unknown as PyValue),
  hashes: dbHashes(live),
});

/** Runs an episode to its end with the in-process engine, noting its state whenever it waits for a step. */
const playOut = async (live: LiveEpisode, deps: SimulationDeps): Promise<{ steps: AtStep[]; state: EpisodeState }> => {
  const steps: AtStep[] = [];
  let state = live.state;
  while (!state.done) {
    if (turnRole(state) !== null) steps.push(atStep(state, live));
    state = await step(state, deps, live.environment);
  }
  steps.push(atStep(state, live));
  return { steps, state };
};

const sourceDeps = depsReplaying();
const sourceLive = await startEpisode(spec, sourceDeps);
const source = await playOut(sourceLive, sourceDeps);
const sourceSimulation = await completeEpisode(source.state, sourceDeps);
const sourceFinalHashes = dbHashes(sourceLive);
const STEPS = source.steps.length - 1;
/** How many messages of each role a state's trajectory holds past the greeting. */
const answered = (trajectory: readonly Message[], role: 'assistant' | 'user'): number => trajectory.slice(1).filter((m) => m.role === role).length;

describe('forkEpisode', () => {
  it('the source is the recorded conversation, graded as the reference graded it, its databases changed by its last steps', () => {
    expect(STEPS).toBe(22);
    expect(source.steps[17]!.hashes).toEqual(source.steps[0]!.hashes);
    expect(source.steps[18]!.hashes).not.toEqual(source.steps[17]!.hashes);
    expect(sourceFinalHashes).not.toEqual(source.steps[18]!.hashes);
    expect(sourceSimulation.messages!.map((m) => [m.role, m.content])).toEqual(recorded.map((m) => [m.role, m.content]));
    expect(sourceSimulation.reward_info!.reward.value).toBe(1);
  });

  it.each(Array.from({ length: STEPS + 1 }, (_, k) => k))('a fork at step %i has the source messages, counters and databases at that step, and continues to its reward and final databases', async (k) => {
    const forked = await forkEpisode({ ...spec, simulationId: `fork-${k}` }, depsReplaying(), sourceSimulation.messages!, k);
    if (forked.kind !== 'forked') throw new Error(forked.message);
    const { live } = forked;
    const expected = source.steps[k]!;
    expect(forked.steps).toBe(STEPS);
    expect(live.state.trajectory).toEqual(sourceSimulation.messages!.slice(0, expected.trajectory.length));
    expect(live.state.trajectory.map((m) => ({ ...m, turn_idx: null }))).toEqual(expected.trajectory);
    const forkAt = atStep(live.state, live);
    expect(forkAt.counters).toEqual(expected.counters);
    expect(forkAt.changes).toBe(expected.changes);
    expect(forkAt.hashes).toEqual(expected.hashes);
    expect(live.pending).toBe(k === STEPS ? null : turnRole(live.state));

    // Continued by the source's own recorded answers after step k, by the in-process engine.
    const deps = depsReplaying(answered(live.state.trajectory, 'assistant'), answered(live.state.trajectory, 'user'));
    const continued = await playOut(live, deps);
    const simulation = await completeEpisode(continued.state, deps);
    expect(simulation.reward_info!.reward.value).toBe(sourceSimulation.reward_info!.reward.value);
    expect(simulation.messages!.map((m) => [m.role, m.content])).toEqual(sourceSimulation.messages!.map((m) => [m.role, m.content]));
    expect(continued.state.step_count).toBe(source.state.step_count);
    // The final databases are new objects in every fork: hashed for a few of them (each hash reads the whole DB).
    if (k % 5 === 0 || k === STEPS) expect(dbHashes(live)).toEqual(sourceFinalHashes);
  });

  it('a step beyond the record is refused, naming the steps it has', async () => {
    const beyond = await forkEpisode(spec, depsReplaying(), sourceSimulation.messages!, STEPS + 1);
    expect(beyond).toEqual({ kind: 'beyond_episode', at_step: STEPS + 1, steps: STEPS, message: `at_step ${STEPS + 1} is beyond the episode: it has steps 0 to ${STEPS}` });
    expect((await forkEpisode(spec, depsReplaying(), sourceSimulation.messages!, -1)).kind).toBe('beyond_episode');
  });

  it('a recorded tool result the replay does not reproduce refuses the fork, naming its step', async () => {
    const messages = sourceSimulation.messages!.map((m) => ({ ...m }));
    // The result of the agent's second call (get_reservation_details NM1VX1, step 2) altered.
    const altered = messages.findIndex((m, i) => i > 3 && m.role === 'tool');
    messages[altered] = { ...messages[altered]!, content: '{"reservation_id": "NM1VX1"}' } as Message;
    const forked = await forkEpisode(spec, depsReplaying(), messages, 10);
    expect(forked.kind).toBe('replay_mismatch');
    expect(forked).toMatchObject({ step: 2 });
    expect(forked.kind === 'replay_mismatch' && forked.message).toContain('Replaying step 2 differs from the record');
    // Before the altered step, the record still forks.
    expect((await forkEpisode(spec, depsReplaying(), messages, 2)).kind).toBe('forked');
  });
});
