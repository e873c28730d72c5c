// The command line runs from a bundle of its modules, built once per source state: an unchanged checkout reuses
// the entry, the bundled modules still find the checkout from their sources' locations, and a build that fails
// leaves the command running from its sources. A build entry's inputs are checked by their stamps first, and an
// edit that keeps a file's size and modification time is still seen.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/cli/checkout.mjs';
import { loadMain } from '../../src/cli/cli-bundle.ts';
import { cliCacheDir } from '../../src/cli/cli-entry.mjs';
import { commitBuild } from '../../src/cli/local/built-entries.ts';
import { latestEntry } from '../../src/cli/local/latest-entry.mjs';
import { stagingFolder } from '../../src/cli/local/cache-entries.ts';

const root = await mkdtemp(path.join(tmpdir(), 'tau2-edge-cli-bundle-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const entriesOf = async (cacheDir: string): Promise<string[]> => (await readdir(cacheDir)).filter((name) => /^[0-9a-f]{32}$/.test(name));

describe('the command line bundle', () => {
  it('is built once per source state and reused; it answers as the sources do', async () => {
    const cacheDir = path.join(root, 'cache');
    const built = await loadMain(cacheDir);
    const [entry] = await entriesOf(cacheDir);
    expect(entry).toBeDefined();
    const bundleFile = path.join(cacheDir, entry!, 'main.mjs');
    const builtAt = (await stat(bundleFile)).mtimeMs;
    const manifest = JSON.parse(await readFile(path.join(cacheDir, entry!, 'manifest.json'), 'utf8')) as { inputs: string[] };
    expect(manifest.inputs).toContain('src/cli/main.ts');

    const reused = await loadMain(cacheDir);
    expect(await entriesOf(cacheDir)).toEqual([entry]);
    expect((await stat(bundleFile)).mtimeMs).toBe(builtAt);
    const sources = await import('../../src/cli/main.ts');
    expect(reused).not.toBe(sources);
    expect(reused.version).toBe(sources.version);
    expect(built.version).toBe(sources.version);
  }, 300_000);

  it('bin/tau2-edge reads the checkout from its bundle: the mock domain\'s tasks', async () => {
    const { stdout } = await promisify(execFile)(path.join(repoRoot, 'bin', 'tau2-edge'), ['tasks', '--domain', 'mock'], { timeout: 240_000 });
    expect(stdout).toContain('create_task_1');
    const latest = JSON.parse(await readFile(path.join(cliCacheDir, 'latest.json'), 'utf8')) as { key: string };
    const bundle = await readFile(path.join(cliCacheDir, latest.key, 'main.mjs'), 'utf8');
    // The bundled data.ts finds the checkout from where its source lies, not from where the bundle lies.
    expect(bundle).toContain(JSON.stringify(`file://${path.join(repoRoot, 'src', 'cli', 'data.ts')}`));
  }, 300_000);

  it('runs from the sources when the bundle cannot be built', async () => {
    const notAFolder = path.join(root, 'a-file');
    await writeFile(notAFolder, '');
    expect(await loadMain(notAFolder)).toBe(await import('../../src/cli/main.ts'));
  }, 60_000);
});

describe('a build entry', () => {
  it('is rebuilt after an edit that keeps the size and modification time of an input', async () => {
    const cacheDir = path.join(root, 'entries');
    const input = path.join(root, 'input.txt');
    // Whole seconds, so that setting them again restores them exactly.
    const at = new Date('2026-01-01T00:00:00Z');
    await writeFile(input, 'first');
    await utimes(input, at, at);
    const keyFiles = (inputs: readonly string[]): string[] => inputs.map((f) => path.join(root, f));
    const entry = await commitBuild(cacheDir, await stagingFolder(cacheDir), keyFiles, ['input.txt']);
    expect(await latestEntry(cacheDir, keyFiles)).toBe(entry);

    await writeFile(input, 'other');
    await utimes(input, at, at);
    expect((await stat(input)).mtime).toEqual(at);
    expect(await latestEntry(cacheDir, keyFiles)).toBeNull();
    await writeFile(input, 'first');
    expect(await latestEntry(cacheDir, keyFiles)).toBe(entry);
  });
});
