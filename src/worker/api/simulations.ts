// /v1/simulations/:id: one finished simulation with its messages and reward_info.
import { Hono } from 'hono';
import type { AppEnv } from './auth.ts';
import { findSimulation } from '../db/simulations.ts';
import { notFound } from './errors.ts';
import { pyJson } from './body.ts';

export const simulationsApi = new Hono<AppEnv>().get('/:id', async (c) => {
  const simulation = await findSimulation(c.env.DB, c.req.param('id'), c.get('caller').tenant);
  if (!simulation) throw notFound('Simulation', c.req.param('id'));
  return pyJson(c, simulation);
});
