// Tenants' API keys in D1: created, listed, revoked; looked up by hash on every request.
import { drizzle } from 'drizzle-orm/d1';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { ApiKey } from '../../api/index.ts';
import { apiKeys } from './schema.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export const apiKeyView = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  tenant: row.tenantId,
  name: row.name,
  prefix: row.prefix,
  created_at: row.createdAt,
  revoked_at: row.revokedAt,
});

export const insertApiKey = async (d1: D1Database, row: ApiKeyRow): Promise<void> => {
  await drizzle(d1).insert(apiKeys).values(row);
};

export const listApiKeys = (d1: D1Database): Promise<ApiKeyRow[]> =>
  drizzle(d1).select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));

/** The key with this hash, unless revoked. */
export const findActiveKey = async (d1: D1Database, keyHash: string): Promise<ApiKeyRow | null> =>
  (await drizzle(d1).select().from(apiKeys).where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt))).get()) ?? null;

/** Revokes the key; returns it, or null when no such key exists. */
export const revokeApiKey = async (d1: D1Database, id: string, nowIso: string): Promise<ApiKeyRow | null> => {
  const db = drizzle(d1);
  await db.update(apiKeys).set({ revokedAt: nowIso }).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
  return (await db.select().from(apiKeys).where(eq(apiKeys.id, id)).get()) ?? null;
};

/** The key with this id, unless revoked (a browser session names its key by id). */
export const findActiveKeyById = async (d1: D1Database, id: string): Promise<ApiKeyRow | null> =>
  (await drizzle(d1).select().from(apiKeys).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).get()) ?? null;
