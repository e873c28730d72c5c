// The engine's dependencies inside the Worker: domain data from the isolate's cache, the tenant's provider
// for every role and for the tools that call one (each call spending the tenant's budget for the run), the
// system clock and random ids.
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { systemClock } from '../../core/orchestrator/clock.ts';
import { simulationDepsFor } from '../../core/runner/batch.ts';
import type { SimulationDeps } from '../../core/runner/simulation.ts';
import { loadDomain } from '../data/domains.ts';
import { providerFor } from '../runs/models.ts';
import { workerToolServices } from './tool-services.ts';
import { budgeted } from '../tenancy/spend-ledger.ts';

export const episodeDeps = async (env: Env, config: RunConfig, tenant: string, runId: string): Promise<SimulationDeps> => {
  const loaded = await loadDomain(env.ASSETS, config.domain);
  const provider = await providerFor(env, tenant);
  const payer = { tenant, runId };
  const client = budgeted(env, payer, provider.client);
  return simulationDepsFor(config, {
    ...loaded,
    clients: { agent: client, user: client, judge: client },
    toolServices: workerToolServices(env, { ...provider, client }, payer),
    clock: systemClock,
    newId: () => crypto.randomUUID(),
    onUnexpectedToolError: (toolName, error) => console.error(`unexpected_tool_exception in ${toolName}`, error),
  });
};
