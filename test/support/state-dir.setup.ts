// The test suite's own local-worker state: every local worker a test starts without a folder of its own (e.g.
// `tau2-edge run` on the default path) keeps its runs here, never in the checkout's `.wrangler/state`, whose
// run list is the user's. The folder is removed at the end; each test file takes a folder of its own in it
// (state-dir.ts), since files run side by side.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    stateRoot: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-test-state-'));
  project.provide('stateRoot', dir);
  // Also for anything started before a test file's own folder is set.
  process.env.TAU2_EDGE_STATE_DIR = dir;
  return () => rm(dir, { recursive: true, force: true });
}
