// The local runtime's assets binding: with run_worker_first and a binding, the assets directory is served by
// workerd's read-only disk service rather than Miniflare's assets (no manifest of every file at each start).
// Through real workerd, a Worker reading files through the binding gets the same answers both ways; assets
// callers may reach, and a directory not there yet, stay with Miniflare's assets.
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as MiniflareModule from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetsAsDiskBinding } from '../../src/cli/local/assets-binding.ts';
import type { WorkerOptions } from '../../src/cli/local/bundle.ts';

const { Miniflare, convertV4MiniflareOptions } = createRequire(import.meta.url)('miniflare') as typeof MiniflareModule;

let dir: string;
const assetsDir = (): string => path.join(dir, 'assets');
/** Named as some of data/tau2's files are: parentheses, plus signs, nested folders. */
const FILES: Record<string, string> = {
  'domains/mock/tasks.json': '[{"id":"t1"}]',
  'domains/kb/documents/doc_(general)_001.json': '{"title":"général"}',
  'domains/kb/documents/doc_holders_+_roles_002.json': '{"n":2}',
};
const READS = [...Object.keys(FILES), 'domains/mock/missing.json', 'domains/kb/documents/doc_%28general%29_001.json'];

/** A Worker that reads each path through env.ASSETS as the data source does, and answers status and text. */
const READER = `export default { async fetch(request, env) {
  const paths = await request.json();
  const answers = [];
  for (const p of paths) {
    const response = await env.ASSETS.fetch(new URL(p, 'https://assets.invalid/'));
    answers.push({ path: p, ok: response.ok, status: response.status, text: response.ok ? await response.text() : null });
  }
  return Response.json(answers);
} };`;

/** The options wrangler gives for an [assets] section with a Worker in front. */
const options = (runWorkerFirst: boolean | string[] = true, directory = assetsDir()): WorkerOptions =>
  ({
    compatibilityDate: '2026-11-01',
    assets: { directory, binding: 'ASSETS', run_worker_first: runWorkerFirst, routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: runWorkerFirst === true } },
  }) as WorkerOptions;

/** What the reader Worker answers for READS, started on real workerd with the given options. */
const readThrough = async (workerOptions: WorkerOptions): Promise<unknown> => {
  const runtime = new Miniflare(convertV4MiniflareOptions({ workers: [{ ...workerOptions, name: 'reader', modules: true, script: READER }] }));
  try {
    const url = await runtime.ready;
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(READS) });
    return await response.json();
  } finally {
    await runtime.dispose();
  }
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-assets-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(assetsDir(), file)), { recursive: true });
    await writeFile(path.join(assetsDir(), file), text);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the local assets binding', () => {
  it('binds the directory as a read-only disk service, keeping the other service bindings', () => {
    const given = { ...options(), serviceBindings: { OTHER: 'other-worker' } } as WorkerOptions;
    const served = assetsAsDiskBinding(given);
    expect(served).not.toHaveProperty('assets');
    expect(served.serviceBindings).toEqual({ OTHER: 'other-worker', ASSETS: { disk: { path: assetsDir(), writable: false } } });
  });

  it('a Worker reading through the binding gets what Miniflare assets give: bytes, 404 for a missing file, decoded paths', async () => {
    const [viaAssets, viaDisk] = [await readThrough(options()), await readThrough(assetsAsDiskBinding(options()))];
    expect(viaDisk).toEqual(viaAssets);
    expect(viaDisk).toEqual([
      ...Object.entries(FILES).map(([p, text]) => ({ path: p, ok: true, status: 200, text })),
      { path: 'domains/mock/missing.json', ok: false, status: 404, text: null },
      { path: 'domains/kb/documents/doc_%28general%29_001.json', ok: true, status: 200, text: FILES['domains/kb/documents/doc_(general)_001.json'] },
    ]);
  }, 60_000);

  it('assets callers may reach, and a directory not there, stay with Miniflare assets', () => {
    expect(assetsAsDiskBinding(options(false))).toEqual(options(false));
    expect(assetsAsDiskBinding(options(['/v1/*']))).toEqual(options(['/v1/*']));
    const missing = options(true, path.join(dir, 'not-fetched'));
    expect(assetsAsDiskBinding(missing)).toEqual(missing);
  });
});
