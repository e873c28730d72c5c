// The episode's row storage: an episode stored after every turn and read back from storage before the next
// one (as after an eviction) ends with exactly the SimulationRun of the core engine's uninterrupted run.
import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { dumpsPy, parsePyJson } from '../../src/core/py/index.ts';
import type { PyInput, PyValue } from '../../src/core/py/index.ts';
import type { ChatMessage } from '../../src/core/llm/types.ts';
import type { ToolSchema } from '../../src/core/llm/tool-schema.ts';
import { envOptions } from '../../src/core/orchestrator/deps.ts';
import { completeEpisode, runSimulation } from '../../src/core/runner/simulation.ts';
import type { SimulationDeps } from '../../src/core/runner/simulation.ts';
import { createOracleClient } from '../../src/core/runner/oracle-client.ts';
import { loadDomain } from '../../src/worker/data/domains.ts';
import { EpisodeStore } from '../../src/worker/episode/store.ts';
import type { LiveEpisode } from '../../src/core/episode/machine.ts';
import { applyTurn, requestText, startEpisode, turnCall } from '../../src/core/episode/machine.ts';
import type { TurnResponse } from '../../src/core/episode/turn.ts';
import { turnResult } from '../../src/worker/turns/producer.ts';
import type { EpisodeDO } from '../../src/worker/episode/episode-do.ts';
import { workerToolServices } from '../../src/worker/episode/tool-services.ts';
import { providerFor } from '../../src/worker/runs/models.ts';
import { tablesOf, toTablesLayout } from './support/episode-layouts.ts';
import { OPERATOR_TENANT } from '../../src/worker/tenancy/tenants.ts';

const depsFor = async (taskId: string) => {
  const loaded = await loadDomain(env.ASSETS, 'mock');
  const task = loaded.data.tasks.find((t) => t.id === taskId)!;
  const oracle = { client: createOracleClient(task), model: 'oracle', llmArgs: {} };
  let now = Date.UTC(2026, 0, 1);
  const deps: SimulationDeps = {
    ...loaded, agentModel: oracle, userModel: oracle, clock: { nowMs: () => (now += 1) }, newId: () => 'sim-1', judge: { recorded: null },
  };
  return { task, deps, spec: { task, agent: 'llm_agent' as const, trial: 0, seed: 7 } };
};

interface WireRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSchema[] | null;
  readonly tool_choice: 'auto' | 'required' | null;
  readonly llm_args: Record<string, PyValue>;
}

/** The model's answer to the turn waited for, through the same request text a producer gets. */
const answer = async (live: LiveEpisode, deps: SimulationDeps): Promise<TurnResponse> => {
  const { model, request } = turnCall(live, deps);
  const wire = parsePyJson(requestText(request)) as unknown as WireRequest;
  const response = await deps.agentModel.client.generate({
    model, messages: wire.messages, tools: wire.tools, toolChoice: wire.tool_choice, llmArgs: wire.llm_args,
  });
  return turnResult(response) as TurnResponse;
};

describe('EpisodeStore', () => {
  it.each(['update_task_with_message_history', 'update_task_with_initialization_data', 'update_task_with_user_tools'])(
    '%s: stored and read back after every turn, the episode ends with the uninterrupted SimulationRun',
    async (taskId) => {
      const direct = await depsFor(taskId);
      const expected = await runSimulation(direct.spec, direct.deps);

      const { task, deps, spec } = await depsFor(taskId);
      const stub = env.EPISODE.getByName(`store-test/${taskId}`);
      const simulation = await runInDurableObject(stub, async (_instance: EpisodeDO, state) => {
        const store = new EpisodeStore(state.storage);
        const reload = (): LiveEpisode => store.load(task, deps.domain, deps.data, envOptions(spec, deps))!;
        let live = await startEpisode({ ...spec, simulationId: 'sim-1' }, deps);
        store.save(live);
        let turns = 0;
        while (live.pending !== null) {
          live = reload();
          const result = await answer(live, deps);
          store.save(await applyTurn(live, result, deps));
          turns++;
        }
        expect(turns).toBeGreaterThan(1);
        return completeEpisode(reload().state, deps);
      });
      expect(dumpsPy(simulation as unknown as PyInput)).toBe(dumpsPy(expected as unknown as PyInput));
    },
  );

  it.each([
    ['a step per row', false],
    ['one message per row', true],
  ])('an episode stored in the table-per-kind layout (messages %s) is moved on first touch and ends with the uninterrupted SimulationRun', async (_label, messagePerRow) => {
    const taskId = 'update_task_with_message_history';
    const direct = await depsFor(taskId);
    const expected = await runSimulation(direct.spec, direct.deps);

    const { task, deps, spec } = await depsFor(taskId);
    const stub = env.EPISODE.getByName(`store-test/previous-tables/${String(messagePerRow)}`);
    const [simulation, messageRows, tables] = await runInDurableObject(stub, async (_instance: EpisodeDO, state) => {
      let store = new EpisodeStore(state.storage);
      const reload = (): LiveEpisode => store.load(task, deps.domain, deps.data, envOptions(spec, deps))!;
      store.save(await startEpisode({ ...spec, simulationId: 'sim-1' }, deps));
      store.save(await applyTurn(reload(), await answer(reload(), deps), deps));
      toTablesLayout(state.storage.sql, { messagePerRow });
      const rows = state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM messages`).one().n;
      // A new instance of the object, as after a deploy.
      store = new EpisodeStore(state.storage);
      let live = reload();
      while (live.pending !== null) {
        store.save(await applyTurn(live, await answer(live, deps), deps));
        live = reload();
      }
      return [await completeEpisode(live.state, deps), rows, tablesOf(state.storage.sql)] as const;
    });
    expect(messageRows).toBeGreaterThan(messagePerRow ? 2 : 1);
    expect(tables).toEqual(['episode']);
    expect(dumpsPy(simulation as unknown as PyInput)).toBe(dumpsPy(expected as unknown as PyInput));
  });

  it('an episode read back keeps its own view of the domain: the retrieval configuration\'s policy for its task', async () => {
    const loaded = await loadDomain(env.ASSETS, 'banking_knowledge');
    const task = loaded.data.tasks.find((t) => t.id === 'task_075')!;
    const oracle = { client: createOracleClient(task), model: 'oracle', llmArgs: {} };
    const deps: SimulationDeps = { ...loaded, agentModel: oracle, userModel: oracle, clock: { nowMs: () => Date.UTC(2026, 0, 1) }, newId: () => 'sim-1', judge: { recorded: null } };
    const spec = { task, agent: 'llm_agent' as const, trial: 0, seed: 7, retrievalConfig: 'golden_retrieval' };
    const stub = env.EPISODE.getByName('store-test/banking/task_075');
    const [started, reloaded] = await runInDurableObject(stub, async (_instance: EpisodeDO, state) => {
      const store = new EpisodeStore(state.storage);
      const live = await startEpisode({ ...spec, simulationId: 'sim-1' }, deps);
      store.save(live);
      return [live.environment.policy, store.load(task, deps.domain, deps.data, envOptions(spec, deps))!.environment.policy];
    });
    expect(started).not.toBe(loaded.data.policy);
    const doc = loaded.data.documents!.find((d) => d.id === task.required_documents![0] || d.title === task.required_documents![0])!;
    expect(started).toContain(`## ${doc.title}\n\n${doc.content}`);
    expect(reloaded).toBe(started);
  });

  it('a write-mode shell\'s files are part of the stored episode: read back, the next command sees them', async () => {
    const loaded = await loadDomain(env.ASSETS, 'banking_knowledge');
    const task = loaded.data.tasks.find((t) => t.id === 'task_005')!;
    const idle = { client: { generate: () => Promise.reject(new Error('turns are given here')) }, model: 'none', llmArgs: {} };
    // The shell calls no provider; the episode still has the tool services every episode on the Worker gets.
    const toolServices = workerToolServices(env, await providerFor(env, OPERATOR_TENANT), { tenant: OPERATOR_TENANT, runId: null });
    const deps: SimulationDeps = { ...loaded, agentModel: idle, userModel: idle, clock: { nowMs: () => Date.UTC(2026, 0, 1) }, newId: () => 'sim-1', judge: { recorded: null }, toolServices };
    const spec = { task, agent: 'llm_agent' as const, trial: 0, seed: 7, retrievalConfig: 'terminal_use_write' };
    const shell = (command: string, id: string): TurnResponse => ({ kind: 'response', content: null, tool_calls: [{ id, name: 'shell', arguments: JSON.stringify({ command }) }] });
    const said = (content: string): TurnResponse => ({ kind: 'response', content, tool_calls: [] });
    const stub = env.EPISODE.getByName('store-test/banking/shell');
    const seen = await runInDurableObject(stub, async (_instance: EpisodeDO, state) => {
      const store = new EpisodeStore(state.storage);
      const reload = (): LiveEpisode => store.load(task, deps.domain, deps.data, envOptions(spec, deps))!;
      const live = await startEpisode({ ...spec, simulationId: 'sim-1' }, deps);
      store.save(live);
      store.save(await applyTurn(reload(), said('Hi, I need help.'), deps)); // the user opens
      store.save(await applyTurn(reload(), shell('echo kept > notes.md', 'c1'), deps));
      store.save(await applyTurn(reload(), said('Anything else?'), deps)); // the agent speaks, the user answers next
      store.save(await applyTurn(reload(), said('Yes, one more thing.'), deps));
      const last = await applyTurn(reload(), shell('cat notes.md', 'c2'), deps);
      return last.state.trajectory.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content);
    });
    expect(seen).toEqual(['(no output)', 'kept\n']);
  });
});
