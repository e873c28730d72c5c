// /v1/admin: the operator creates tenants' API keys (the key is returned once, only its hash is kept), lists
// and revokes them, and sets tenants' quotas. Other callers get 404.
import { Hono } from 'hono';
import { ApiKeyCreateSchema, TenantIdSchema, TenantQuotasSchema } from '../../api/index.ts';
import type { ApiKeyCreated, TenantQuotasView } from '../../api/index.ts';
import { findQuotas, putQuotas, tenantUsage } from '../db/quotas.ts';
import { apiKeyView, insertApiKey, listApiKeys, revokeApiKey } from '../db/api-keys.ts';
import type { ApiKeyRow } from '../db/api-keys.ts';
import { randomHex, randomToken, sha256Text } from '../crypto.ts';
import { requireOperator } from './auth.ts';
import type { AppEnv } from './auth.ts';
import { invalidRequest, notFound, zodIssues } from './errors.ts';
import { pyJson, readBody } from './body.ts';

/** Tenant keys carry this prefix, so a leaked one is recognisable. */
export const TENANT_KEY_PREFIX = 't2e_';

const tenantParam = (value: string | undefined): string => {
  const tenant = TenantIdSchema.safeParse(value);
  if (!tenant.success) throw invalidRequest(zodIssues(tenant.error).map((i) => ({ ...i, path: 'tenant' })));
  return tenant.data;
};

const quotasView = async (env: Env, tenant: string): Promise<TenantQuotasView> => ({
  tenant,
  quotas: await findQuotas(env.DB, tenant),
  usage: await tenantUsage(env.DB, tenant, Date.now()),
});

export const adminApi = new Hono<AppEnv>()
  .use('*', requireOperator)
  .post('/keys', async (c) => {
    const { value } = await readBody(c, ApiKeyCreateSchema);
    const key = `${TENANT_KEY_PREFIX}${randomToken(32)}`;
    const row: ApiKeyRow = {
      id: `key_${randomHex(8)}`,
      tenantId: value.tenant,
      name: value.name,
      keyHash: await sha256Text(key),
      prefix: key.slice(0, TENANT_KEY_PREFIX.length + 6),
      createdAt: new Date().toISOString(),
      revokedAt: null,
    };
    await insertApiKey(c.env.DB, row);
    const body: ApiKeyCreated = { ...apiKeyView(row), key };
    c.header('Cache-Control', 'no-store');
    return pyJson(c, body, 201);
  })
  .get('/keys', async (c) => pyJson(c, { keys: (await listApiKeys(c.env.DB)).map(apiKeyView) }))
  .delete('/keys/:id', async (c) => {
    const row = await revokeApiKey(c.env.DB, c.req.param('id'), new Date().toISOString());
    if (!row) throw notFound('API key', c.req.param('id'));
    return pyJson(c, apiKeyView(row));
  })
  .get('/tenants/:tenant/quotas', async (c) => pyJson(c, await quotasView(c.env, tenantParam(c.req.param('tenant')))))
  .put('/tenants/:tenant/quotas', async (c) => {
    const tenant = tenantParam(c.req.param('tenant'));
    const { value } = await readBody(c, TenantQuotasSchema);
    await putQuotas(c.env.DB, tenant, value);
    return pyJson(c, await quotasView(c.env, tenant));
  });
