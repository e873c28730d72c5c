// Worker entry: the Hono app that serves the tau2-edge HTTP API.
import { Hono } from 'hono';

const app = new Hono<{ Bindings: Env }>().get('/v1/health', (c) => c.json({ status: 'ok' as const }));

export type AppType = typeof app;

export default { fetch: app.fetch } satisfies ExportedHandler<Env>;
