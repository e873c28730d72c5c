// The test suite's own local-worker state: every local worker a test starts without a folder of its own (e.g.
// `tau2-edge run` on the default path) keeps its runs here, never in the checkout's `.wrangler/state`, whose
// run list is the user's. Set before the test processes start, so they inherit it; removed at the end.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-test-state-'));
  process.env.TAU2_EDGE_STATE_DIR = dir;
  return () => rm(dir, { recursive: true, force: true });
}
