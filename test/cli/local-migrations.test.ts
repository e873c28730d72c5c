// A new local state folder starts from a copy of a database migrated once per set of migrations (built before
// the tests by test/support/local-worker.setup.ts): it holds every committed migration, and new folders reuse
// the migrated copy rather than migrating again.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/cli/checkout.mjs';
import { applyLocalMigrations, defaultMigratedCacheDir } from '../../src/cli/local/migrations.ts';

const root = await mkdtemp(path.join(tmpdir(), 'tau2-edge-migrations-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** The migrations `wrangler d1 migrations apply` recorded in the folder's D1 database: name and when applied. */
const appliedMigrations = async (persistTo: string): Promise<{ name: string; at: string }[]> => {
  const dir = path.join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const [file] = (await readdir(dir)).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  const db = new DatabaseSync(path.join(dir, file!), { readOnly: true });
  try {
    return db.prepare('SELECT name, applied_at FROM d1_migrations ORDER BY id').all().map((row) => ({ name: String(row.name), at: String(row.applied_at) }));
  } finally {
    db.close();
  }
};

describe('the local D1 migrations', () => {
  it('migrates new state folders from the one migrated copy', async () => {
    const committed = (await readdir(path.join(repoRoot, 'migrations'))).filter((f) => f.endsWith('.sql')).sort();
    const entries = await readdir(defaultMigratedCacheDir);
    await applyLocalMigrations(path.join(root, 'first'));
    await applyLocalMigrations(path.join(root, 'second'));
    const first = await appliedMigrations(path.join(root, 'first'));
    expect(first.map(({ name }) => name)).toEqual(committed);
    // Copies of one migrated database, rather than two migrations seconds apart.
    expect(await appliedMigrations(path.join(root, 'second'))).toEqual(first);
    expect(await readdir(defaultMigratedCacheDir)).toEqual(entries);
  }, 120_000);
});
