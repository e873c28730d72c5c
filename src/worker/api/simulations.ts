// /v1/simulations/:id: one finished simulation with its messages and reward_info; /db-diff: where its final DB
// differs from the gold one (the task's gold actions replayed), changed paths only.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from './auth.ts';
import { findSimulation, findSimulationRunId } from '../db/simulations.ts';
import { decodeConfig, findRun } from '../db/runs.ts';
import { loadDomain } from '../data/domains.ts';
import { runTasks } from '../../core/runner/batch.ts';
import { simulationDbDiff } from '../../core/evaluator/db-diff.ts';
import { isSoloAgent } from '../../core/schemas/episode.ts';
import type { DbDiff } from '../../api/index.ts';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import { notFound } from './errors.ts';
import { pyJson, readBody } from './body.ts';
import { EpisodeForkSchema } from '../../api/index.ts';
import { forked } from './forks.ts';

/** The caller's simulation; another tenant's is as unknown as one that never existed. */
const requireSimulation = async (c: Context<AppEnv>): Promise<SimulationRun> => {
  const simulation = await findSimulation(c.env.DB, c.req.param('id')!, c.get('caller').tenant);
  if (!simulation) throw notFound('Simulation', c.req.param('id')!);
  return simulation;
};

export const simulationsApi = new Hono<AppEnv>()
  .get('/:id', async (c) => pyJson(c, await requireSimulation(c)))
  .post('/:id/fork', async (c) => {
    const { value } = await readBody(c, EpisodeForkSchema);
    return forked(c, { simulation_id: c.req.param('id'), at_step: value.at_step }, value);
  })
  .get('/:id/db-diff', async (c) => {
    const simulation = await requireSimulation(c);
    const { tenant } = c.get('caller');
    const run = await findRun(c.env.DB, (await findSimulationRunId(c.env.DB, simulation.id, tenant))!, tenant);
    const config = decodeConfig(run!.config);
    const { domain, data } = await loadDomain(c.env.ASSETS, config.domain);
    const task = runTasks(config, data).find((t) => t.id === simulation.task_id);
    if (!task) throw notFound('Task', simulation.task_id);
    const body: DbDiff = simulationDbDiff(task, simulation, { domain, data, solo: isSoloAgent(config.agent) });
    return c.json(body);
  });
