// Worker entry: the tau2-edge HTTP API (Hono, under /v1), its A2A agent card and JSON-RPC endpoint, the cron
// trigger of scheduled evaluations and the Durable Objects (episodes, run fan-out, the per-provider gate) and the consumer of participant turns.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { HealthSchema } from '../api/index.ts';
import { authenticate } from './api/auth.ts';
import type { AppEnv } from './api/auth.ts';
import { adminApi } from './api/admin.ts';
import { credentialsApi } from './api/credentials.ts';
import { openApiDocument } from './api/openapi.ts';
import { docsRoutes } from './docs/docs.ts';
import { ApiError, onError } from './api/errors.ts';
import { runsApi } from './api/runs.ts';
import { simulationsApi } from './api/simulations.ts';
import { compareApi } from './api/compare.ts';
import { episodesApi } from './api/episodes.ts';
import { schedulesApi } from './api/schedules.ts';
import { openEnvApi } from './openenv/routes.ts';
import { handleRpc } from './a2a/rpc.ts';
import { agentCard } from './a2a/card.ts';
import { A2A_RPC_PATH, AGENT_CARD_PATH } from '../api/a2a.ts';
import { episodeMcpApi } from './mcp/routes.ts';
import { launchDueSchedules } from './runs/scheduled.ts';
import { routeMethods } from './api/methods.ts';
import { viewerRoutes } from './ui/viewer.ts';
import { limits } from './tenancy/limits.ts';
import { consumeTurns } from './turns/consumer.ts';
import type { TurnMessage } from './turns/consumer.ts';
import type { SeatTurn } from './a2a/seat.ts';
import './env.ts';
import './limits-trace.ts';

export { EpisodeDO } from './episode/episode-do.ts';
export { RunDO } from './runs/run-do.ts';
export { ProviderGateDO } from './runs/provider-gate.ts';
export { OpenEnvSessionDO } from './openenv/session-do.ts';


/** Bodies over the operator's LIMIT_MAX_BODY_BYTES get 413 before anything reads them whole. */
const limitBody: MiddlewareHandler<AppEnv> = (c, next) => {
  const maxSize = limits(c.env).LIMIT_MAX_BODY_BYTES;
  return bodyLimit({
    maxSize,
    onError: (c) => c.json(new ApiError(413, 'payload_too_large', `The body is over the limit of ${maxSize} bytes (LIMIT_MAX_BODY_BYTES)`).body(), 413),
  })(c, next);
};

let allowedMethods: ((path: string) => string[]) | undefined;

const app = new Hono<AppEnv>()
  .get('/v1/health', (c) => c.json({ status: 'ok', commit: c.env.GIT_COMMIT } satisfies z.infer<typeof HealthSchema>))
  .get('/v1/openapi.json', (c) => c.json(openApiDocument(new URL(c.req.url).origin)))
  .route('/', docsRoutes)
  .get(AGENT_CARD_PATH, (c) => c.json(agentCard(new URL(c.req.url).origin)))
  // An episode's MCP endpoint authenticates itself: it also takes the episode's own token.
  .use('/v1/episodes/:id/mcp', limitBody)
  .route('/v1/episodes', episodeMcpApi)
  .use('/v1/*', authenticate)
  .use('/v1/*', limitBody)
  .route('/v1/runs', runsApi)
  .route('/v1/simulations', simulationsApi)
  .route('/v1/compare', compareApi)
  .route('/v1/episodes', episodesApi)
  .route('/v1/schedules', schedulesApi)
  .route('/v1/provider-credentials', credentialsApi)
  .route('/v1/admin', adminApi)
  .post(A2A_RPC_PATH, handleRpc)
  .use('/openenv/reset', authenticate, limitBody)
  .use('/openenv/step', authenticate, limitBody)
  .route('/openenv', openEnvApi)
  .notFound((c) => {
    allowedMethods ??= routeMethods(app.routes);
    const allow = allowedMethods(c.req.path);
    if (allow.length === 0) return c.json(new ApiError(404, 'not_found', `No route ${c.req.method} ${c.req.path}`).body(), 404);
    c.header('Allow', allow.join(', '));
    return c.json(new ApiError(405, 'method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; use ${allow.join(', ')}`).body(), 405);
  })
  .onError(onError);

// The web viewer: its pages call the API above in-process, through this same app.
app.route('/', viewerRoutes((request, env, ctx) => app.fetch(request, env, ctx)));

export type AppType = typeof app;
/** The routes the app serves (for the API contract test). */
export const appRoutes = (): readonly { method: string; path: string }[] => app.routes;

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(launchDueSchedules(env, controller.scheduledTime));
  },
  queue: (batch, env) => consumeTurns(batch as MessageBatch<TurnMessage | SeatTurn>, env),
} satisfies ExportedHandler<Env>;
