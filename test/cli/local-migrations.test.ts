// A new local state folder starts from a copy of a database migrated once per set of migrations: it holds every
// committed migration, and a second new folder reuses the migrated copy rather than migrating again.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/cli/checkout.ts';
import { applyLocalMigrations } from '../../src/cli/local-migrations.ts';

const root = await mkdtemp(path.join(tmpdir(), 'tau2-edge-migrations-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** The names `wrangler d1 migrations apply` recorded in the folder's D1 database. */
const appliedMigrations = async (persistTo: string): Promise<string[]> => {
  const dir = path.join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const [file] = (await readdir(dir)).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  const db = new DatabaseSync(path.join(dir, file!), { readOnly: true });
  try {
    return db.prepare('SELECT name FROM d1_migrations ORDER BY id').all().map((row) => String(row.name));
  } finally {
    db.close();
  }
};

describe('the local D1 migrations', () => {
  it('migrates a new state folder from one migrated copy, reused by the next new folder', async () => {
    const committed = (await readdir(path.join(repoRoot, 'migrations'))).filter((f) => f.endsWith('.sql')).sort();
    const cacheDir = path.join(root, 'cache');
    await applyLocalMigrations(path.join(root, 'first'), cacheDir);
    expect(await appliedMigrations(path.join(root, 'first'))).toEqual(committed);
    const entries = await readdir(cacheDir);
    expect(entries).toHaveLength(1);

    await applyLocalMigrations(path.join(root, 'second'), cacheDir);
    expect(await appliedMigrations(path.join(root, 'second'))).toEqual(committed);
    expect(await readdir(cacheDir)).toEqual(entries);
  }, 120_000);
});
