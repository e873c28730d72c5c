// Episode tokens in D1: recorded by hash when an episode is created, looked up by hash on each MCP request.
import { drizzle } from 'drizzle-orm/d1';
import { eq } from 'drizzle-orm';
import { episodeTokens } from './schema.ts';

export type EpisodeTokenRow = typeof episodeTokens.$inferSelect;

export const insertEpisodeToken = async (d1: D1Database, row: EpisodeTokenRow): Promise<void> => {
  await drizzle(d1).insert(episodeTokens).values(row);
};

export const findEpisodeToken = async (d1: D1Database, tokenHash: string): Promise<EpisodeTokenRow | null> =>
  (await drizzle(d1).select().from(episodeTokens).where(eq(episodeTokens.tokenHash, tokenHash)).get()) ?? null;
