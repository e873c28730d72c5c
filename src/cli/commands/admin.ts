// `tau2-edge admin keys create|list|revoke --api URL`: the operator's administration of tenants' API keys on a
// serving worker (TAU2_EDGE_API_KEY holds the operator key, the worker's API_KEY).
import { Command } from 'commander';
import { apiClient } from '../api-client.ts';
import type { ApiClient } from '../api-client.ts';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';

interface ApiFlag {
  readonly api: string;
}

const withApi = (command: Command): Command =>
  command.requiredOption('--api <url>', 'the serving worker (the operator key is read from TAU2_EDGE_API_KEY)');

const client = (values: ApiFlag): ApiClient => apiClient(values.api, process.env.TAU2_EDGE_API_KEY);

export const adminCommand = (ctx: CliContext): Command => {
  const keys = new Command('keys').description("tenants' API keys on a serving worker");
  keys.addCommand(
    defineCommand(
      ctx,
      'create',
      'issue a key for a tenant; the key is shown once',
      ['admin keys create --tenant acme --name "acme CI" --api https://tau2.example.com'],
      (command) => withApi(command.requiredOption('--tenant <tenant>', 'the tenant').requiredOption('--name <name>', "the key's name")),
      async (values: ApiFlag & { tenant: string; name: string }) => {
        const created = await client(values).createKey(values.tenant, values.name);
        ctx.out(`created ${created.id} for tenant ${created.tenant} (${created.name})`);
        ctx.out(`key (shown once, keep it secret): ${created.key}`);
        return 0;
      },
    ),
  );
  keys.addCommand(
    defineCommand(ctx, 'list', 'every key: id, tenant, name, prefix, created, state', ['admin keys list --api http://127.0.0.1:8787'], withApi, async (values: ApiFlag) => {
      for (const key of await client(values).listKeys()) {
        ctx.out([key.id, key.tenant, key.name, `${key.prefix}…`, key.created_at, key.revoked_at ? `revoked ${key.revoked_at}` : 'active'].join('\t'));
      }
      return 0;
    }),
  );
  keys.addCommand(
    defineCommand(
      ctx,
      'revoke',
      'revoke a key; requests with it are refused from then on',
      ['admin keys revoke key_123 --api http://127.0.0.1:8787'],
      (command) => withApi(command.argument('<key-id>', 'the key to revoke')),
      async (id: string, values: ApiFlag) => {
        const revoked = await client(values).revokeKey(id);
        ctx.out(`revoked ${revoked.id} (tenant ${revoked.tenant}) at ${revoked.revoked_at}`);
        return 0;
      },
    ),
  );
  return new Command('admin').description("the operator's administration of a serving worker").addCommand(keys);
};
