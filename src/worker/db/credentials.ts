// Tenants' own provider credentials in D1 (the key only as AES-GCM ciphertext, see ../credentials.ts).
import { drizzle } from 'drizzle-orm/d1';
import { and, asc, eq } from 'drizzle-orm';
import type { ProviderCredential, ProviderName } from '../../api/index.ts';
import { providerCredentials } from './schema.ts';

export type ProviderCredentialRow = typeof providerCredentials.$inferSelect;

/** What a tenant sees of a stored credential: never the key. */
export const credentialView = (row: ProviderCredentialRow): ProviderCredential => ({
  provider: row.provider as ProviderName,
  base_url: row.baseUrl,
  key_set: true,
  updated_at: row.updatedAt,
});

export const putCredential = async (d1: D1Database, row: ProviderCredentialRow): Promise<void> => {
  const { tenantId: _tenant, provider: _provider, ...changes } = row;
  await drizzle(d1).insert(providerCredentials).values(row).onConflictDoUpdate({ target: [providerCredentials.tenantId, providerCredentials.provider], set: changes });
};

export const listCredentials = (d1: D1Database, tenant: string): Promise<ProviderCredentialRow[]> =>
  drizzle(d1).select().from(providerCredentials).where(eq(providerCredentials.tenantId, tenant)).orderBy(asc(providerCredentials.provider));

export const findCredential = async (d1: D1Database, tenant: string, provider: ProviderName): Promise<ProviderCredentialRow | null> =>
  (await drizzle(d1)
    .select()
    .from(providerCredentials)
    .where(and(eq(providerCredentials.tenantId, tenant), eq(providerCredentials.provider, provider)))
    .get()) ?? null;

export const deleteCredential = async (d1: D1Database, tenant: string, provider: ProviderName): Promise<boolean> =>
  (await drizzle(d1)
    .delete(providerCredentials)
    .where(and(eq(providerCredentials.tenantId, tenant), eq(providerCredentials.provider, provider)))
    .returning({ provider: providerCredentials.provider })).length === 1;
