// Episode tokens: a bearer token that opens one episode's MCP endpoint and nothing else, so an agent can be handed
// a URL without the tenant's API key. Issued once with the episode, kept only as its hash, and refused once the
// episode is over.
import { randomToken, sha256Text } from '../crypto.ts';
import { findEpisodeToken, insertEpisodeToken } from '../db/episode-tokens.ts';

/** Tells an episode token from an API key at a glance (and in a leaked-secret scan). */
const PREFIX = 'tau2ep_';

export const isEpisodeToken = (token: string): boolean => token.startsWith(PREFIX);

/** A new token for the tenant's episode; only its hash is stored. */
export const issueEpisodeToken = async (env: Env, tenant: string, episodeId: string): Promise<string> => {
  const token = `${PREFIX}${randomToken(32)}`;
  await insertEpisodeToken(env.DB, { tokenHash: await sha256Text(token), tenantId: tenant, episodeId, createdAt: new Date().toISOString() });
  return token;
};

/** The tenant the token acts for when it opens that episode; null for any other token. */
export const tenantOfEpisodeToken = async (env: Env, token: string, episodeId: string): Promise<string | null> => {
  const row = await findEpisodeToken(env.DB, await sha256Text(token));
  return row !== null && row.episodeId === episodeId ? row.tenantId : null;
};
