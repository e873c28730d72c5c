// Reference data fetch: copy, download fallback, skip of verified files, and errors that name the bad file.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import getPort from 'get-port';
import {
  DataFetchError,
  OfflineError,
  UnreachableError,
  defaultManifest,
  defaultSourceDir,
  fetchData,
  sha256Hex,
  upstreamUrl,
} from '../../scripts/fetch-data.ts';
import type { DataManifest, Download } from '../../scripts/fetch-data.ts';

const contents: Record<string, string> = {
  'domains/mock/db.json': '{"tasks": {}}',
  'domains/mock/policy.md': '# Mock policy\n',
  'user_simulator/simulation_guidelines.md': 'Be a user.\n',
};

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

const manifest: DataManifest = {
  upstream: { repo: 'example/tau2', commit: 'c0ffee', license: 'MIT' },
  files: Object.entries(contents).map(([file, text]) => ({
    path: file,
    sha256: sha256Hex(bytesOf(text)),
    bytes: bytesOf(text).byteLength,
    upstream_path: `data/tau2/${file}`,
  })),
};

const unreachable: Download = async (url) => {
  throw new Error(`offline: ${url}`);
};

/** Runs fetchData and returns the DataFetchError it throws. */
const failure = async (run: Promise<unknown>): Promise<DataFetchError> => {
  const error: unknown = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DataFetchError);
  return error as DataFetchError;
};

let root: string;
let sourceDir: string;
let destDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tau2-edge-fetch-'));
  sourceDir = path.join(root, 'source');
  destDir = path.join(root, 'dest');
  for (const [file, text] of Object.entries(contents)) {
    await mkdir(path.dirname(path.join(sourceDir, file)), { recursive: true });
    await writeFile(path.join(sourceDir, file), text);
  }
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('fetchData', () => {
  it('copies every file from the source folder into the same layout and verifies it', async () => {
    const report = await fetchData({ sourceDir, destDir, manifest, download: unreachable });
    expect(report.copied).toEqual(Object.keys(contents));
    for (const [file, text] of Object.entries(contents)) {
      expect(await readFile(path.join(destDir, file), 'utf8')).toBe(text);
    }
  });

  it('skips files already present with the right sum, without reading the source', async () => {
    await fetchData({ sourceDir, destDir, manifest });
    await rm(sourceDir, { recursive: true });
    const report = await fetchData({ sourceDir, destDir, manifest, download: unreachable });
    expect(report).toEqual({ present: Object.keys(contents), copied: [], downloaded: [] });
  });

  it('replaces a present file whose sum is wrong', async () => {
    await fetchData({ sourceDir, destDir, manifest });
    await writeFile(path.join(destDir, 'domains/mock/policy.md'), 'edited by hand\n');
    const report = await fetchData({ sourceDir, destDir, manifest });
    expect(report.copied).toEqual(['domains/mock/policy.md']);
    expect(await readFile(path.join(destDir, 'domains/mock/policy.md'), 'utf8')).toBe(contents['domains/mock/policy.md']);
  });

  it('corrupted source file → error naming that file with expected and actual sha256', async () => {
    const corrupted = 'domains/mock/db.json';
    await writeFile(path.join(sourceDir, corrupted), '{"tasks": {"x": 1}}');
    const error = await failure(fetchData({ sourceDir, destDir, manifest, download: unreachable }));
    expect(error.failures.map((f) => f.path)).toEqual([corrupted]);
    const expected = manifest.files.find((f) => f.path === corrupted)!.sha256;
    const actual = sha256Hex(bytesOf('{"tasks": {"x": 1}}'));
    expect(error.message).toContain(corrupted);
    expect(error.message).toContain(`expected ${expected}`);
    expect(error.message).toContain(`got ${actual}`);
  });

  it('missing file with no download possible → error naming that file', async () => {
    const missing = 'user_simulator/simulation_guidelines.md';
    await rm(path.join(sourceDir, missing));
    const error = await failure(fetchData({ sourceDir, destDir, manifest, download: unreachable }));
    expect(error.failures).toEqual([
      { path: missing, reason: expect.stringContaining(`offline: https://raw.githubusercontent.com/example/tau2/c0ffee/data/tau2/${missing}`) },
    ]);
    expect(error.message).toContain(missing);
  });

  it('missing file without a download function → error naming that file', async () => {
    const error = await failure(fetchData({ destDir, manifest }));
    expect(error.failures.map((f) => f.path)).toEqual(Object.keys(contents));
    expect(error.failures[0]!.reason).toContain('missing');
  });

  it('downloads a file the source lacks from the pinned upstream path and verifies it', async () => {
    const missing = 'domains/mock/policy.md';
    await rm(path.join(sourceDir, missing));
    const requested: string[] = [];
    const download: Download = async (url) => {
      requested.push(url);
      return bytesOf(contents[missing]!);
    };
    const report = await fetchData({ sourceDir, destDir, manifest, download });
    expect(requested).toEqual([`https://raw.githubusercontent.com/example/tau2/c0ffee/data/tau2/${missing}`]);
    expect(report.downloaded).toEqual([missing]);
    expect(await readFile(path.join(destDir, missing), 'utf8')).toBe(contents[missing]);
  });

  it('downloaded file with the wrong sum → error naming that file, nothing written', async () => {
    const missing = 'domains/mock/policy.md';
    await rm(path.join(sourceDir, missing));
    const error = await failure(
      fetchData({ sourceDir, destDir, manifest, download: async () => bytesOf('<html>404</html>') }),
    );
    expect(error.failures.map((f) => f.path)).toEqual([missing]);
    expect(error.message).toContain('sha256 mismatch');
    await expect(readFile(path.join(destDir, missing))).rejects.toThrow(/ENOENT/);
  });
});

describe('scripts/tau2-data.json', () => {
  it('pins upstream sierra-research/tau2-bench at one commit', () => {
    expect(defaultManifest.upstream).toEqual({
      repo: 'sierra-research/tau2-bench',
      commit: 'a2c024725189473d2d7cea3a5cfdbcc67478e41f',
      license: 'MIT',
    });
  });

  it('lists each data file once, with a sha256, a size and its upstream path', () => {
    const paths = defaultManifest.files.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain('domains/mock/tasks.json');
    expect(paths).not.toContain('LICENSE');
    for (const file of defaultManifest.files) {
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(file.bytes).toBeGreaterThan(0);
      expect(file.upstream_path).toBe(`data/tau2/${file.path}`);
      expect(path.normalize(file.path)).toBe(file.path);
      expect(file.path.startsWith('..')).toBe(false);
    }
  });

  // The reference data copy this checkout uses (TAU2_DATA_DIR, else ../shared/tau2): its MANIFEST.json when it
  // has one, else its files themselves.
  const copy = defaultSourceDir();
  it.skipIf(copy === undefined)('matches the reference data copy (TAU2_DATA_DIR or ../shared/tau2), banking_knowledge included, with the same sums', async () => {
    const listed = await readFile(path.join(copy!, 'MANIFEST.json'), 'utf8').then(
      (text) => (JSON.parse(text) as { files: { path: string; sha256: string }[] }).files.filter((f) => f.path !== 'LICENSE'),
      () => null,
    );
    const ours = new Map(defaultManifest.files.map((f) => [f.path, f.sha256]));
    const differing =
      listed === null
        ? (await Promise.all(defaultManifest.files.map(async (f) => ((await readFile(path.join(copy!, f.path)).then(sha256Hex, () => null)) === f.sha256 ? null : f.path)))).filter((p) => p !== null)
        : listed.filter((f) => ours.get(f.path) !== f.sha256).map((f) => f.path);
    expect(differing).toEqual([]);
    expect(defaultManifest.files.filter((f) => f.path.startsWith('domains/banking_knowledge/documents/'))).toHaveLength(698);
  });

  it('builds raw.githubusercontent.com URLs at the pinned commit', () => {
    const file = defaultManifest.files.find((f) => f.path === 'domains/airline/db.json')!;
    expect(upstreamUrl(defaultManifest, file)).toBe(
      'https://raw.githubusercontent.com/sierra-research/tau2-bench/a2c024725189473d2d7cea3a5cfdbcc67478e41f/data/tau2/domains/airline/db.json',
    );
  });
});

describe('fetch-data without a network', () => {
  it('stops at the first download that cannot reach the server', async () => {
    const urls: string[] = [];
    const offline: Download = async (url) => {
      urls.push(url);
      throw new UnreachableError(url, new Error('getaddrinfo ENOTFOUND raw.githubusercontent.com'));
    };
    const error: unknown = await fetchData({ destDir: path.join(root, 'empty-dest'), manifest, download: offline }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OfflineError);
    expect((error as OfflineError).missing).toBe(manifest.files.length);
    expect(urls).toHaveLength(1);
  });

  it('a fresh clone with no data copy and no network: fails in seconds, in a few lines naming TAU2_DATA_DIR', async () => {
    // Nothing listens on this port: every connection is refused, as with no network.
    const closed = await getPort({ host: '127.0.0.1' });
    // A data copy that lacks every file (so each must be downloaded).
    await mkdir(path.join(root, 'no-copy-here'));
    const started = Date.now();
    const failed = await promisify(execFile)(process.execPath, [path.join(import.meta.dirname, '../../scripts/fetch-data.ts'), '--dest', path.join(root, 'fresh')], {
      env: { ...process.env, TAU2_DATA_DIR: path.join(root, 'no-copy-here'), TAU2_DATA_BASE_URL: `http://127.0.0.1:${closed}` },
      timeout: 60_000,
    }).then(
      () => null,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    const lines = `${failed!.stdout}${failed!.stderr}`.trimEnd().split('\n');
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(lines.length).toBeLessThan(40);
    expect(lines.filter((l) => l.startsWith('downloading '))).toHaveLength(1);
    expect(failed!.stderr).toContain('TAU2_DATA_DIR=');
    expect(failed!.stderr).toMatch(/843 reference data file\(s\) are missing/);
  });
});
