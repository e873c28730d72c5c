// POST /v1/episodes/:id/mcp: the episode's MCP server over Streamable HTTP, one JSON-RPC message per POST. A request
// is answered with JSON, or with a one-event SSE stream to a client that accepts only that; a notification with 202.
// Open with the tenant's API key (as every /v1 route) or with the episode's own token, which opens this endpoint
// alone and only while the episode runs.
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../api/auth.ts';
import { authFailure, authenticate, bearer } from '../api/auth.ts';
import { readBody } from '../api/body.ts';
import { answered } from '../api/episode-refusals.ts';
import { ApiError } from '../api/errors.ts';
import { McpMessageSchema } from '../../api/mcp.ts';
import { PROTOCOL_HEADER, answerBody, protocolVersionIssue } from '../../core/mcp/streamable-http.ts';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { isSoloAgent } from '../../core/schemas/episode.ts';
import { decodeConfig } from '../db/runs.ts';
import { findEpisode } from '../episode/handle.ts';
import { isEpisodeToken, tenantOfEpisodeToken } from './episode-token.ts';
import { answerMcp } from './server.ts';

/** The tenant acting on episode `id`, and whether by the episode's token; 401 for a token of another episode. */
const accessOf = async (c: Context<AppEnv>, id: string): Promise<{ tenant: string; scoped: boolean }> => {
  const token = bearer(c.req.header('authorization'));
  if (token !== null && isEpisodeToken(token)) {
    const tenant = await tenantOfEpisodeToken(c.env, token, id);
    if (tenant === null) throw await authFailure(c, new ApiError(401, 'unauthorized', `This episode token does not open episode ${id}`));
    return { tenant, scoped: true };
  }
  await authenticate(c, async () => {});
  return { tenant: c.get('caller').tenant, scoped: false };
};

export const episodeMcpApi = new Hono<AppEnv>().post('/:id/mcp', async (c) => {
  const id = c.req.param('id');
  const { tenant, scoped } = await accessOf(c, id);
  const { handle, run } = answered(await findEpisode(c.env, tenant, id));
  if (!handle.external || handle.role !== 'agent') throw new ApiError(409, 'conflict', `Episode ${id} is not played by an outside agent: only such an episode serves MCP`);
  if (scoped && (await c.env.EPISODE.getByName(handle.key).observe(Number.MAX_SAFE_INTEGER, false)) === null) {
    throw new ApiError(401, 'unauthorized', `Episode ${id} is over: its token no longer opens it`);
  }
  const versionIssue = protocolVersionIssue(c.req.header(PROTOCOL_HEADER));
  if (versionIssue !== null) throw new ApiError(400, 'invalid_request', versionIssue);
  const { value: message } = await readBody(c, McpMessageSchema);
  if (message.id === undefined) return c.body(null, 202);
  const withUser = !isSoloAgent(decodeConfig(run.config).agent);
  const response = dumpsPy((await answerMcp(c.env, handle, { ...message, id: message.id }, { withUser })) as unknown as PyInput);
  const { body, headers } = answerBody(response, c.req.header('accept'));
  return c.body(body, 200, headers);
});
