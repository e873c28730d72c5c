// /v1/provider-credentials: a tenant stores its own provider credentials (bring-your-own provider), which its
// runs then use. Keys are encrypted at rest and write-only: no response, log or row shows them.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { ProviderCredentialPutSchema, ProviderNameSchema } from '../../api/index.ts';
import type { ProviderName } from '../../api/index.ts';
import { credentialView, deleteCredential, listCredentials, putCredential } from '../db/credentials.ts';
import { credentialContext } from '../runs/models.ts';
import { credentialsConfigured, encryptSecret, endpointIssue } from '../credentials.ts';
import type { AppEnv } from './auth.ts';
import { ApiError, invalidRequest, notFound } from './errors.ts';
import { pyJson, readBody } from './body.ts';

const providerParam = (c: Context<AppEnv>): ProviderName => {
  const provider = ProviderNameSchema.safeParse(c.req.param('provider'));
  if (!provider.success) throw invalidRequest([{ path: 'provider', message: `Use one of ${ProviderNameSchema.options.join(', ')}` }]);
  return provider.data;
};

export const credentialsApi = new Hono<AppEnv>()
  .get('/', async (c) => pyJson(c, { credentials: (await listCredentials(c.env.DB, c.get('caller').tenant)).map(credentialView) }))
  .put('/:provider', async (c) => {
    const provider = providerParam(c);
    const { value } = await readBody(c, ProviderCredentialPutSchema);
    if (!credentialsConfigured(c.env)) throw new ApiError(503, 'not_configured', 'This service stores no provider credentials (the operator has set no CREDENTIALS_KEY)');
    if (value.base_url !== null) {
      if (provider !== 'openai') throw invalidRequest([{ path: 'base_url', message: 'Only the openai provider (OpenAI-compatible endpoints) takes a base_url' }]);
      const issue = endpointIssue(value.base_url, c.env);
      if (issue) throw invalidRequest([{ path: 'base_url', message: issue }]);
    }
    const { tenant } = c.get('caller');
    const row = {
      tenantId: tenant,
      provider,
      baseUrl: value.base_url,
      keyCiphertext: await encryptSecret(c.env, value.api_key, credentialContext(tenant, provider)),
      updatedAt: new Date().toISOString(),
    };
    await putCredential(c.env.DB, row);
    return pyJson(c, credentialView(row));
  })
  .delete('/:provider', async (c) => {
    const provider = providerParam(c);
    if (!(await deleteCredential(c.env.DB, c.get('caller').tenant, provider))) throw notFound('Provider credential', provider);
    return c.body(null, 204);
  });
