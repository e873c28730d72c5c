// Worker entry: the tau2-edge HTTP API (Hono, under /v1), the cron trigger of scheduled evaluations and the
// Durable Objects (episodes, run fan-out, the per-provider gate) and the consumer of participant turns.
import { Hono } from 'hono';
import type { z } from 'zod';
import type { HealthSchema } from '../core/schemas/api.ts';
import { requireApiKey } from './api/auth.ts';
import { ApiError, onError } from './api/errors.ts';
import { runsApi } from './api/runs.ts';
import { simulationsApi } from './api/simulations.ts';
import { schedulesApi } from './api/schedules.ts';
import { launchDueSchedules } from './runs/scheduled.ts';
import { consumeTurns } from './turns/consumer.ts';
import type { TurnMessage } from './turns/consumer.ts';
import './env.ts';

export { EpisodeDO } from './episode/episode-do.ts';
export { RunDO } from './runs/run-do.ts';
export { ProviderGateDO } from './runs/provider-gate.ts';

const health: z.infer<typeof HealthSchema> = { status: 'ok' };

const app = new Hono<{ Bindings: Env }>()
  .get('/v1/health', (c) => c.json(health))
  .use('/v1/*', requireApiKey)
  .route('/v1/runs', runsApi)
  .route('/v1/simulations', simulationsApi)
  .route('/v1/schedules', schedulesApi)
  .notFound((c) => c.json(new ApiError(404, 'not_found', `No route ${c.req.method} ${c.req.path}`).body(), 404))
  .onError(onError);

export type AppType = typeof app;

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(launchDueSchedules(env, controller.scheduledTime));
  },
  queue: (batch, env) => consumeTurns(batch as MessageBatch<TurnMessage>, env),
} satisfies ExportedHandler<Env>;
