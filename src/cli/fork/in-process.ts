// Forks of a results file's simulations in this process: the state after step K rebuilt from the recorded
// trajectory (its tool calls replayed through the domain), then continued under the run's configuration as the
// file records it, with other agent or user models if asked, and graded like any simulation.
import { randomUUID } from 'node:crypto';
import type { PyValue } from '../../core/py/index.ts';
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import { isExternalAgent } from '../../core/schemas/episode.ts';
import { runConfigOfInfo } from '../../core/runner/results-config.ts';
import { simulationDepsFor, workUnit } from '../../core/runner/batch.ts';
import { continueSimulation } from '../../core/runner/simulation.ts';
import { systemClock } from '../../core/orchestrator/clock.ts';
import { forkEpisode } from '../../core/episode/fork.ts';
import { loadDomain } from '../data.ts';
import { clientFor, missingCredentials } from '../run/models.ts';
import { cliToolServices } from '../run/tool-services.ts';

export interface ForkModels {
  /** Another agent model than the run's. */
  readonly agentLlm?: string;
  /** Another user-simulator model than the run's. */
  readonly userLlm?: string;
  readonly llmBaseUrl?: string;
}

export interface Forker {
  /** A fork of `source` at step `atStep`, continued to its end with `seed`; throws (naming the step) when the trajectory does not replay. */
  readonly continueFrom: (source: SimulationRun, atStep: number, seed: number) => Promise<SimulationRun>;
}

/** What continues a results file's simulations here; refused when its agent is external or a model cannot be called. */
export const inProcessForker = async (results: Results, models: ForkModels): Promise<Forker> => {
  const { info } = results;
  const config = runConfigOfInfo(info, {
    ...(models.agentLlm ? { llm_agent: models.agentLlm } : {}),
    ...(models.userLlm ? { llm_user: models.userLlm } : {}),
    ...(info.agent_info.llm_args ? { llm_args_agent: info.agent_info.llm_args as Record<string, PyValue> } : {}),
    ...(info.user_info.llm_args ? { llm_args_user: info.user_info.llm_args as Record<string, PyValue> } : {}),
  });
  if (isExternalAgent(config.agent)) throw new Error(`the run's agent (${config.agent}) answered from outside: it cannot be continued in this process`);
  const missing = missingCredentials([config.llm_agent, ...(config.user === 'user_simulator' ? [config.llm_user] : [])], models.llmBaseUrl, process.env);
  if (missing !== null) throw new Error(missing);
  const { domain, data, guidelines } = await loadDomain(config.domain);
  const client = clientFor(models.llmBaseUrl);
  const deps = simulationDepsFor(config, {
    domain,
    data,
    guidelines,
    clients: { agent: client, user: client, judge: client },
    clock: systemClock,
    newId: randomUUID,
    toolServices: cliToolServices(client, models.llmBaseUrl),
  });
  return {
    continueFrom: async (source, atStep, seed) => {
      const task = results.tasks.find((t) => t.id === source.task_id);
      if (task === undefined) throw new Error(`simulation ${source.id}: its task ${source.task_id} is not in the results file`);
      const spec = { ...workUnit(config, task, source.trial ?? 0, seed), simulationId: deps.newId() };
      const forked = await forkEpisode(spec, deps, source.messages ?? [], atStep);
      if (forked.kind !== 'forked') throw new Error(`simulation ${source.id}: ${forked.message}`);
      const simulation = await continueSimulation(forked.live.state, deps);
      return { ...simulation, info: { ...(simulation.info ?? {}), forked_from: { simulation_id: source.id, at_step: atStep } } };
    },
  };
};
