// One-command deploy to a Cloudflare account (`npm run deploy`), idempotent: finds or creates the D1 database
// and the queue, writes the deploy configuration with the database's id, sets the secrets the Worker lacks,
// applies the remote D1 migrations, deploys the Worker with the reference data as its private assets, and checks
// GET /v1/health on the deployed URL. A second run finds everything and uploads only the code. `--dry-run`
// reads the account and prints what it would do, changing nothing. An account without a workers.dev subdomain is
// refused first, before anything is created.
// Credentials: a logged-in wrangler (`wrangler login`), or CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { defaultDestDir, describe, fetchData } from './fetch-data.ts';
import { deployConfigPath, deployTargets, sourceConfigPath, writeDeployConfig } from './deploy/config.ts';
import { ensureDatabase, ensureQueue } from './deploy/resources.ts';
import { planSecrets, presentSecrets, terminalInputs } from './deploy/secrets.ts';
import type { SecretInputs, SecretPlan } from './deploy/secrets.ts';
import { checkHealth, deployedUrl, healthUrl } from './deploy/health.ts';
import { required, wranglerWith } from './deploy/wrangler.ts';
import { workersSubdomain } from './deploy/subdomain.ts';
import { gitCommit } from '../src/cli/run/git-commit.ts';
import type { Wrangler } from './deploy/wrangler.ts';

/** A placeholder id for a database that does not exist yet (dry run only). */
const NO_DATABASE_YET = '00000000-0000-0000-0000-000000000000';

export interface DeployOptions {
  readonly dryRun: boolean;
  readonly env?: NodeJS.ProcessEnv;
  readonly inputs?: SecretInputs;
  readonly log?: (line: string) => void;
  readonly healthPatienceMs?: number;
}

const secretLine = (plan: SecretPlan, dryRun: boolean): string => {
  const set = [...plan.set].map(([name, { source }]) => `${name} (${source})`);
  const parts = [
    set.length > 0 ? `${dryRun ? 'would set' : 'set'} ${set.join(', ')}` : 'none missing',
    plan.present.length > 0 ? `already set: ${plan.present.join(', ')}` : '',
    ...plan.notes,
  ];
  return `secrets: ${parts.filter(Boolean).join('; ')}`;
};

/** Fails early, with what to do, when wrangler has no credentials. */
const checkCredentials = async (wrangler: Wrangler, env: NodeJS.ProcessEnv): Promise<string> => {
  if (env.CLOUDFLARE_API_TOKEN) {
    if (!env.CLOUDFLARE_ACCOUNT_ID) throw new Error('CLOUDFLARE_API_TOKEN is set but CLOUDFLARE_ACCOUNT_ID is not');
    return `account ${env.CLOUDFLARE_ACCOUNT_ID} (CLOUDFLARE_API_TOKEN)`;
  }
  const whoami = await wrangler(['whoami'], { withConfig: false });
  if (!whoami.ok || /not authenticated/i.test(whoami.stdout)) {
    throw new Error('wrangler is not logged in: run `npx wrangler login`, or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID');
  }
  return 'the account wrangler is logged in to';
};

/** The upload line of wrangler deploy (`Total Upload: … / gzip: …`), for the record. */
const uploadSize = (output: string): string => output.match(/Total Upload: [^\n]+/)?.[0] ?? 'size not reported';

/** The deploy with `secrets`, handed to wrangler in a private file that is removed afterwards. */
const deployWith = async (wrangler: Wrangler, secrets: SecretPlan['set']): Promise<string> => {
  if (secrets.size === 0) return required(wrangler, ['deploy']);
  const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-deploy-'));
  try {
    const file = path.join(dir, 'secrets.json');
    await writeFile(file, JSON.stringify(Object.fromEntries([...secrets].map(([name, { value }]) => [name, value]))), { mode: 0o600 });
    return await required(wrangler, ['deploy', '--secrets-file', file]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

export const deploy = async (options: DeployOptions): Promise<void> => {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  const { dryRun } = options;
  const targets = await deployTargets();
  // Lookups and creations need no database id: they run against wrangler.toml itself.
  const account = wranglerWith(sourceConfigPath, env);
  log(`deploying ${targets.workerName} to ${await checkCredentials(account, env)}${dryRun ? ' (dry run: nothing changes)' : ''}`);
  // Before anything is created: without a subdomain the Worker has no URL, and the deploy would fail last.
  const subdomain = await workersSubdomain(account, env);
  log(`workers.dev subdomain: ${subdomain} (the Worker answers at https://${targets.workerName}.${subdomain}.workers.dev)`);

  try {
    await fetchData({ destDir: defaultDestDir() });
  } catch (error) {
    throw new Error(`the reference data is not complete (run: npm run fetch-data): ${describe(error)}`);
  }
  log('reference data: verified, to be uploaded as the private assets the Worker reads');

  // Side by side: each is a wrangler process of seconds, and none needs another's answer.
  const [database, queue, present] = await Promise.all([
    ensureDatabase(account, targets.databaseName, !dryRun),
    ensureQueue(account, targets.queueName, !dryRun),
    presentSecrets(account),
  ]);
  log(`D1 database ${targets.databaseName}: ${database.state === 'missing' ? 'would be created' : `${database.state} (${database.value})`}`);
  log(`queue ${targets.queueName}: ${queue.state === 'missing' ? 'would be created' : queue.state}`);

  const commit = gitCommit();
  const configPath = await writeDeployConfig(database.state === 'missing' ? NO_DATABASE_YET : database.value, commit);
  log(`deploy configuration: ${path.relative(process.cwd(), configPath) || configPath} (wrangler.toml with the database id and GIT_COMMIT ${commit})`);
  const worker = wranglerWith(deployConfigPath, env);

  const inputs = options.inputs ?? terminalInputs(env);
  const secrets = await planSecrets(present, dryRun ? { env: inputs.env, ask: null } : inputs, { dryRun });
  log(secretLine(secrets, dryRun));

  if (dryRun) {
    if (database.state === 'missing') log('migrations: every one would be applied to the new database');
    else log(`migrations: ${summarizeMigrations(await required(worker, ['d1', 'migrations', 'list', 'DB', '--remote']), 'pending')}`);
    const outdir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-bundle-'));
    try {
      log(`would deploy: ${uploadSize(await required(worker, ['deploy', '--dry-run', '--outdir', outdir]))}`);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
    log(`would check: GET /v1/health on the deployed URL answers from commit ${commit}`);
    return;
  }

  log(`migrations: ${summarizeMigrations(await required(worker, ['d1', 'migrations', 'apply', 'DB', '--remote']), 'applied')}`);
  const output = await deployWith(worker, secrets.set);
  const url = deployedUrl(output);
  if (url === null) throw new Error('wrangler deploy did not report a workers.dev URL (is workers_dev off?)');
  log(`deployed: ${url} (${uploadSize(output)})`);
  const health = healthUrl(url, env);
  await checkHealth(health, options.healthPatienceMs, commit);
  log(`health: GET ${health} answered {"status":"ok"} from commit ${commit}`);
};

/** wrangler's migrations output in a few words. */
const summarizeMigrations = (output: string, done: 'pending' | 'applied'): string => {
  if (/No migrations to apply/i.test(output)) return 'up to date';
  const names = [...new Set(output.match(/\d{4}_[\w-]+\.sql/g) ?? [])];
  return `${names.length} ${done}: ${names.join(', ')}`;
};

const main = async (): Promise<void> => {
  const program = new Command('deploy')
    .description('Deploy tau2-edge to a Cloudflare account: D1, queue, secrets, migrations, Worker, health check')
    .option('--dry-run', 'read the account and print what would be done, changing nothing', false)
    .action(async ({ dryRun }: { dryRun: boolean }) => deploy({ dryRun }));
  await program.parseAsync();
};

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(`deploy: ${describe(error)}`);
    process.exitCode = 1;
  });
}
