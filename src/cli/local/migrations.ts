// The local D1 database of a local worker's state folder, brought up to the committed migrations. A new state
// folder starts from a copy of a database migrated once per set of migrations (a cache entry), since
// `wrangler d1 migrations apply` takes seconds and several processes; a folder with data of its own is
// migrated in place.
import { createHash } from 'node:crypto';
import { access, cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { commitEntry, stagingFolder } from './cache-entries.ts';
import { cacheRoot, repoRoot, wranglerBin } from '../checkout.mjs';

export const defaultMigratedCacheDir = path.join(cacheRoot, 'migrated-d1');

const migrationsDir = path.join(repoRoot, 'migrations');
/** What a state folder records once migrated: the migration files' names, in order. */
const MARKER = 'tau2-edge-migrations.txt';
/** Where Miniflare keeps the state (and `wrangler d1 migrations apply --persist-to DIR` writes). */
const STATE = 'v3';

/** The committed migration files, in order; what the marker in the state folder records once applied. */
const migrationFiles = async (): Promise<string[]> =>
  (await readdir(migrationsDir).catch(() => [] as string[])).filter((f) => f.endsWith('.sql')).sort();

const migrate = async (binding: string, persistTo: string): Promise<void> => {
  const { execa } = await import('execa');
  const applied = await execa(wranglerBin, ['d1', 'migrations', 'apply', binding, '--local', '--persist-to', persistTo], {
    cwd: repoRoot,
    env: { CI: 'true' },
    all: true,
    reject: false,
  });
  if (applied.failed) throw new Error(`Applying the local D1 migrations failed:\n${applied.all ?? ''}`, { cause: applied });
};

/** The cache entry of a database migrated from nothing; its name hashes the D1 config, the migrations and wrangler. */
const migratedEntry = async (d1: object, files: readonly string[], cacheDir: string): Promise<string> => {
  const hash = createHash('sha256').update(JSON.stringify(d1));
  hash.update(await readFile(path.join(repoRoot, 'node_modules', 'wrangler', 'package.json')));
  for (const file of files) hash.update(`\0${file}\0`).update(await readFile(path.join(migrationsDir, file)));
  const key = `d1-${hash.digest('hex').slice(0, 32)}`;
  const entry = path.join(cacheDir, key);
  if (await access(path.join(entry, MARKER)).then(() => true, () => false)) return entry;
  const staging = await stagingFolder(cacheDir);
  await migrate((d1 as { binding: string }).binding, staging);
  await writeFile(path.join(staging, MARKER), files.join('\n'));
  return commitEntry(cacheDir, staging, key, (name) => name.startsWith('d1-'));
};

/**
 * Brings the local D1 database in `persistTo` up to the committed migrations. `wrangler d1 migrations apply`
 * takes seconds even when there is nothing to do, so a marker in the state folder skips it when current.
 */
export const applyLocalMigrations = async (persistTo: string, cacheDir: string = defaultMigratedCacheDir): Promise<void> => {
  const config = parseToml(await readFile(path.join(repoRoot, 'wrangler.toml'), 'utf8')) as { d1_databases?: { binding?: string }[] };
  const d1 = config.d1_databases?.[0];
  if (d1 === undefined) return;
  if (!d1.binding) throw new Error('wrangler.toml: [[d1_databases]] without a binding');
  const marker = path.join(persistTo, MARKER);
  const files = await migrationFiles();
  if ((await readFile(marker, 'utf8').catch(() => null)) === files.join('\n')) return;
  await mkdir(persistTo, { recursive: true });
  const fresh = !(await access(path.join(persistTo, STATE)).then(() => true, () => false));
  if (fresh) await cp(path.join(await migratedEntry(d1, files, cacheDir), STATE), path.join(persistTo, STATE), { recursive: true });
  else await migrate(d1.binding, persistTo);
  await writeFile(marker, files.join('\n'));
};
