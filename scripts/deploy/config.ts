// The deploy configuration: wrangler.toml as it is, with the account's D1 database id in place of the local
// placeholder. It is generated on every deploy (never edited by hand, never committed) next to wrangler.toml, so
// that every relative path in it (main, assets, migrations) means the same; wrangler.toml stays the one source
// and keeps working offline (`wrangler dev`, the tests) with its placeholder id.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { repoRoot } from '../../src/cli/local/worker.ts';

export const sourceConfigPath = path.join(repoRoot, 'wrangler.toml');
/** Ignored by git; wrangler never picks it up by itself (it looks for wrangler.json, .jsonc and .toml only). */
export const deployConfigPath = path.join(repoRoot, 'wrangler.deploy.json');

export interface DeployTargets {
  readonly workerName: string;
  readonly databaseName: string;
  readonly queueName: string;
}

interface SourceConfig {
  readonly name: string;
  readonly vars?: Readonly<Record<string, string>>;
  readonly d1_databases: readonly { readonly binding: string; readonly database_name: string; readonly database_id: string }[];
  readonly queues: { readonly producers: readonly { readonly queue: string }[] };
}

const readSource = async (): Promise<SourceConfig & Record<string, unknown>> =>
  parseToml(await readFile(sourceConfigPath, 'utf8')) as unknown as SourceConfig & Record<string, unknown>;

/** What wrangler.toml names: the Worker, its one D1 database and its one queue. */
export const deployTargets = async (): Promise<DeployTargets> => {
  const source = await readSource();
  const [database] = source.d1_databases;
  const [queue] = source.queues.producers;
  if (!database || !queue) throw new Error('wrangler.toml names no D1 database or no queue');
  return { workerName: source.name, databaseName: database.database_name, queueName: queue.queue };
};

/**
 * Writes the deploy configuration with `databaseId` for the database wrangler.toml names, and the commit deployed
 * as GIT_COMMIT (which results record as `info.git_commit`).
 */
export const writeDeployConfig = async (databaseId: string, commit: string): Promise<string> => {
  const source = await readSource();
  const config = { ...source, vars: { ...source.vars, GIT_COMMIT: commit }, d1_databases: source.d1_databases.map((d) => ({ ...d, database_id: databaseId })) };
  await writeFile(deployConfigPath, `${JSON.stringify(config, null, 2)}\n`);
  return deployConfigPath;
};
