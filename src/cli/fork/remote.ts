// Forks of a simulation a tau2-edge API holds (`fork --api URL`, `review --api URL --repair`): the API opens the
// fork group (one run of n episodes from the simulation's state at the step), the CLI follows that run to its end
// and reads its results.
import type { Results, SimulationRun } from '../../core/schemas/simulation.ts';
import type { ApiClient } from '../../client/index.ts';
import type { Forker } from './in-process.ts';
import { followRun } from '../run/follow-run.ts';

export interface ForkRequest {
  readonly sim: string;
  readonly at: number;
  readonly n: number;
  readonly agentLlm?: string;
  readonly userLlm?: string;
  readonly seed?: number;
  readonly saveTo?: string;
}

/** The source, the continuations as a results file, and where to save them. */
export interface Forked {
  readonly source: SimulationRun;
  readonly results: Results;
  readonly saveTo: string;
}

export const forkThroughApi = async (client: ApiClient, request: ForkRequest): Promise<Forked> => {
  const source = await client.simulation(request.sim);
  const created = await client.fork({ simulation: request.sim }, {
    at_step: request.at,
    n: request.n,
    ...(request.agentLlm ? { llm_agent: request.agentLlm } : {}),
    ...(request.userLlm ? { llm_user: request.userLlm } : {}),
    ...(request.seed === undefined ? {} : { seed: request.seed }),
  });
  const status = await followRun(client, created.run_id, { onSimulation: () => undefined });
  if (status !== 'completed') throw new Error(`the fork group's run ${created.run_id} ended ${status}`);
  const results = await client.results(created.run_id);
  // In trial order: fork 1 is the group's trial 0.
  const simulations = [...results.simulations].sort((a, b) => (a.trial ?? 0) - (b.trial ?? 0));
  return { source, results: { ...results, simulations }, saveTo: request.saveTo ?? `fork_${request.sim}_${request.at}.json` };
};

/** Continuations of the API's simulations, forked there one at a time (a repair's attempts). */
export const apiForker = (client: ApiClient): Forker => ({
  continueFrom: async (source, atStep, seed) => {
    const forked = await forkThroughApi(client, { sim: source.id, at: atStep, n: 1, seed });
    const [continuation] = forked.results.simulations;
    if (continuation === undefined) throw new Error(`the fork of simulation ${source.id} at step ${atStep} recorded no simulation`);
    return continuation;
  },
});
