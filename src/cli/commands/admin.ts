// `tau2-edge admin keys create|list|revoke --api URL`: the operator's administration of tenants' API keys on a
// serving worker (TAU2_EDGE_API_KEY holds the operator key, the worker's API_KEY).
import { parseArgs } from 'node:util';
import { apiClient } from '../api-client.ts';

const USAGE = `usage: tau2-edge admin keys create --tenant T --name N --api URL
       tau2-edge admin keys list --api URL
       tau2-edge admin keys revoke KEY_ID --api URL
(the operator key is read from TAU2_EDGE_API_KEY)`;

export const adminCommand = async (argv: string[], out: (text: string) => void): Promise<number> => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { api: { type: 'string' }, tenant: { type: 'string' }, name: { type: 'string' } },
  });
  const [group, action, id] = positionals;
  if (group !== 'keys' || values.api === undefined) throw new Error(USAGE);
  const client = apiClient(values.api, process.env.TAU2_EDGE_API_KEY);
  if (action === 'create') {
    if (!values.tenant || !values.name) throw new Error(USAGE);
    const created = await client.createKey(values.tenant, values.name);
    out(`created ${created.id} for tenant ${created.tenant} (${created.name})`);
    out(`key (shown once, keep it secret): ${created.key}`);
    return 0;
  }
  if (action === 'list') {
    for (const key of await client.listKeys()) {
      out([key.id, key.tenant, key.name, `${key.prefix}…`, key.created_at, key.revoked_at ? `revoked ${key.revoked_at}` : 'active'].join('\t'));
    }
    return 0;
  }
  if (action === 'revoke' && id !== undefined) {
    const revoked = await client.revokeKey(id);
    out(`revoked ${revoked.id} (tenant ${revoked.tenant}) at ${revoked.revoked_at}`);
    return 0;
  }
  throw new Error(USAGE);
};
