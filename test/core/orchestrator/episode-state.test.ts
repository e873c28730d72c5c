// The episode state is one JSON value: persisting and reloading it between every step changes nothing.
import { describe, expect, it } from 'vitest';
import { dumpsPy, parsePyJson } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { EpisodeStateSchema } from '../../../src/core/schemas/episode.ts';
import type { EpisodeState } from '../../../src/core/schemas/episode.ts';
import { initializeEpisode } from '../../../src/core/orchestrator/initialize.ts';
import { step } from '../../../src/core/orchestrator/step.ts';
import { completeEpisode } from '../../../src/core/runner/simulation.ts';
import { createOracleClient } from '../../../src/core/runner/oracle-client.ts';
import { loaded, steppingClock } from '../../support/domains.ts';

const persist = (state: EpisodeState): EpisodeState => EpisodeStateSchema.parse(parsePyJson(dumpsPy(state as unknown as PyValue)));

const play = async (taskId: string, roundTrip: boolean) => {
  const { domain, data, guidelines } = await loaded('mock');
  const task = data.tasks.find((t) => t.id === taskId)!;
  const oracle = { client: createOracleClient(task), model: 'oracle', llmArgs: {} };
  const deps = {
    domain, data, guidelines, agentModel: oracle, userModel: oracle, clock: steppingClock(),
    newId: () => 'sim-1', judge: { recorded: null },
  };
  let state = await initializeEpisode({ simulationId: 'sim-1', task, agent: 'llm_agent', trial: 0, seed: 7 }, deps);
  const states = [state];
  while (!state.done) {
    state = await step(roundTrip ? persist(state) : state, deps);
    states.push(state);
  }
  return { simulation: await completeEpisode(roundTrip ? persist(state) : state, deps), states };
};

describe('episode state persistence', () => {
  it.each(['update_task_with_message_history', 'update_task_with_initialization_data', 'update_task_with_user_tools'])(
    '%s: a run persisted after every step equals an uninterrupted run',
    async (taskId) => {
      const direct = await play(taskId, false);
      const resumed = await play(taskId, true);
      expect(dumpsPy(resumed.simulation as unknown as PyValue)).toBe(dumpsPy(direct.simulation as unknown as PyValue));
      for (const s of direct.states) expect(persist(s)).toEqual(EpisodeStateSchema.parse(s));
    },
  );

  it('the persisted environment holds only the changed paths', async () => {
    const { states } = await play('update_task_with_message_history', false);
    const last = states[states.length - 1]!;
    const changed = last.environment.slots.flat().map((c) => c.path.join('.'));
    expect(changed).toEqual(expect.arrayContaining(['tasks.task_2']));
    expect(changed.length).toBeLessThan(5);
  });
});
