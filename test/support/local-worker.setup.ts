// Builds what every local worker starts from — the Worker bundle and a migrated D1 database — and the bundle
// every bin/tau2-edge runs from (all cached by their inputs) once, before the test files that start them run side
// by side and would each build them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyLocalMigrations } from '../../src/cli/local/migrations.ts';
import { workerBundle } from '../../src/cli/local/bundle.ts';
import { cliBundleEntry } from '../../src/cli/cli-bundle.ts';

export default async function setup(): Promise<void> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'tau2-edge-migrated-'));
  try {
    await Promise.all([workerBundle(), applyLocalMigrations(scratch), cliBundleEntry()]);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
