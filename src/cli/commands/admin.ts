// `tau2-edge admin keys create|list|revoke --api URL`: the operator's administration of tenants' API keys on a
// serving worker (TAU2_EDGE_API_KEY holds the operator key, the worker's API_KEY).
import { Command } from 'commander';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { clientFromFlags, withApiFlag } from '../api-flag.ts';
import type { ApiFlags } from '../api-flag.ts';


const client = clientFromFlags;
const withApi = (command: Command): Command => withApiFlag(command, 'the worker (the operator key is read from TAU2_EDGE_API_KEY)');

export const adminCommand = (ctx: CliContext): Command => {
  const keys = new Command('keys').description("tenants' API keys");
  keys.addCommand(
    defineCommand(
      ctx,
      'create',
      'issue a key to a tenant (printed once: keep it secret)',
      ['admin keys create --tenant acme --name "acme CI" --api https://tau2.example.com'],
      (command) => withApi(command.requiredOption('--tenant <tenant>', 'the tenant the key acts for').requiredOption('--name <name>', 'what the key is for')),
      async (values: ApiFlags & { tenant: string; name: string }) => {
        const created = await client(values).createKey(values.tenant, values.name);
        ctx.out(`created ${created.id} for tenant ${created.tenant} (${created.name})`);
        ctx.out(`key (shown once, keep it secret): ${created.key}`);
        return 0;
      },
    ),
  );
  keys.addCommand(
    defineCommand(ctx, 'list', 'every key, by prefix (keys themselves are never shown again)', ['admin keys list --api https://tau2.example.com'], withApi, async (values: ApiFlags) => {
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
      'revoke a key: it is refused from then on',
      ['admin keys revoke key_0123456789abcdef --api https://tau2.example.com'],
      (command) => withApi(command.argument('<key-id>', 'the key id (from `admin keys list`)')),
      async (id: string, values: ApiFlags) => {
        const revoked = await client(values).revokeKey(id);
        ctx.out(`revoked ${revoked.id} (tenant ${revoked.tenant}) at ${revoked.revoked_at}`);
        return 0;
      },
    ),
  );
  return new Command('admin').description("operator administration of a serving worker: tenants' API keys").addCommand(keys);
};
