// OpenEnv's endpoints under /openenv: the WebSocket session (GET /ws, held by an OpenEnvSessionDO), and the
// HTTP companions — GET /health, /metadata and /schema, and stateless POST /reset and /step, which name the
// episode they step. Every route but health, metadata and schema is the caller's, as on /v1.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../api/auth.ts';
import { authFailure, bearer, callerOfKey } from '../api/auth.ts';
import { ApiError } from '../api/errors.ts';
import { pyJson, readBody } from '../api/body.ts';
import { answered } from '../api/episode-refusals.ts';
import { findEpisode } from '../episode/handle.ts';
import {
  OpenEnvActionSchema,
  OpenEnvHealthSchema,
  OpenEnvMetadataSchema,
  OpenEnvObservationSchema,
  OpenEnvSchemasSchema,
  OpenEnvStateSchema,
  OpenEnvStepRequestSchema,
} from '../../api/openenv.ts';
import { act, resetEpisode, resultOf } from './actions.ts';
import { newSession } from './session-state.ts';
import { SESSION_HEADER } from './session-do.ts';
import { holdSocket } from './socket-gate.ts';
import { limits } from '../tenancy/limits.ts';

const METADATA: z.infer<typeof OpenEnvMetadataSchema> = {
  name: 'tau2-edge',
  description: 'τ²-bench episodes: the caller plays the agent (or the user) of a task in a dual-control domain; the reward is the reference evaluator\'s.',
  readme_content: null,
  version: null,
  author: null,
  documentation_url: null,
};

/** OpenEnv's /schema: the JSON schemas of the action, the observation and the state, from their zod schemas. */
const schemas = (): z.infer<typeof OpenEnvSchemasSchema> => ({
  action: z.toJSONSchema(OpenEnvActionSchema, { io: 'input' }),
  observation: z.toJSONSchema(OpenEnvObservationSchema),
  state: z.toJSONSchema(OpenEnvStateSchema),
});

const unauthorized = (): ApiError => new ApiError(401, 'unauthorized', 'Missing or invalid API key (Authorization: Bearer <key>)');

export const openEnvApi = new Hono<AppEnv>()
  .get('/health', (c) => c.json({ status: 'healthy' } satisfies z.infer<typeof OpenEnvHealthSchema>))
  .get('/metadata', (c) => c.json(METADATA))
  .get('/schema', (c) => c.json(schemas()))
  .get('/ws', async (c) => {
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(426, 'invalid_request', 'GET /openenv/ws opens a WebSocket: send Upgrade: websocket');
    // A session is opened with an API key, which every message checks again (a revoked key ends the session).
    const operatorKey = c.env.API_KEY;
    let owner = { tenant: 'operator', keyId: null as string | null };
    if (operatorKey) {
      const token = bearer(c.req.header('authorization'));
      const found = token === null ? null : await callerOfKey(c.env, token, operatorKey);
      if (found === null) throw await authFailure(c, unauthorized());
      owner = { tenant: found.caller.tenant, keyId: found.keyId };
    }
    const id = c.env.OPENENV_SESSION.newUniqueId();
    if (!(await holdSocket(c.env, owner.tenant, id.toString()))) {
      const max = limits(c.env).LIMIT_MAX_SOCKETS_PER_TENANT;
      throw new ApiError(429, 'limit_exceeded', `${max} OpenEnv sockets are open for this tenant, the most allowed (LIMIT_MAX_SOCKETS_PER_TENANT): close one first`, undefined, { 'Retry-After': '60' });
    }
    const headers = new Headers({ upgrade: 'websocket', [SESSION_HEADER]: JSON.stringify(newSession(id.toString(), owner.tenant, owner.keyId)) });
    const stub = c.env.OPENENV_SESSION.get(id);
    return stub.fetch(new Request(c.req.url, { headers }));
  })
  .post('/reset', async (c) => {
    // Validated as a reset's data is (a new episode's body, or an episode_id to join).
    const { value } = await readBody(c, z.record(z.string(), z.unknown()));
    const { opening } = answered(await resetEpisode(c.env, c.get('caller').tenant, value));
    return pyJson(c, resultOf(opening.episode_id, opening));
  })
  .post('/step', async (c) => {
    const { value } = await readBody(c, OpenEnvStepRequestSchema);
    const { handle } = answered(await findEpisode(c.env, c.get('caller').tenant, value.episode_id));
    // Without a step number the action answers the turn the episode waits for now.
    const named = 'step' in value.action ? value.action.step : undefined;
    const step = named ?? (await c.env.EPISODE.getByName(handle.key).observe(Number.MAX_SAFE_INTEGER, false))?.step ?? 0;
    return pyJson(c, answered(await act(c.env, handle, step, value.action)).result);
  });
