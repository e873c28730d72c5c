// /v1/compare?a=RUN&b=RUN: is run B better than run A? The paired comparison on the tasks both of the caller's
// runs evaluated (another tenant's run is as unknown as one that never existed).
import { Hono } from 'hono';
import type { AppEnv } from './auth.ts';
import { CompareQuerySchema } from '../../api/index.ts';
import type { Compare } from '../../api/index.ts';
import { pairedComparison } from '../../core/metrics/paired-comparison.ts';
import { findRun } from '../db/runs.ts';
import { runSimulations } from '../db/simulations.ts';
import { invalidRequest, notFound, zodIssues } from './errors.ts';
import { pyJson } from './body.ts';

export const compareApi = new Hono<AppEnv>().get('/', async (c) => {
  const query = CompareQuerySchema.safeParse(c.req.query());
  if (!query.success) throw invalidRequest(zodIssues(query.error));
  const { a, b } = query.data;
  const { tenant } = c.get('caller');
  for (const id of [a, b]) if (!(await findRun(c.env.DB, id, tenant))) throw notFound('Run', id);
  const [simsA, simsB] = await Promise.all([runSimulations(c.env.DB, a), runSimulations(c.env.DB, b)]);
  const body: Compare = { a, b, ...pairedComparison(simsA, simsB) };
  return pyJson(c, body);
});
