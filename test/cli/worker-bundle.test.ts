// The local worker's bundle cache: an unchanged project reuses its entry, and a changed source, a changed
// imported module or a changed config builds a new one that holds the change.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerBundle } from '../../src/cli/worker-bundle.ts';

let project: string;
const configPath = (): string => path.join(project, 'wrangler.toml');
const cacheDir = (): string => path.join(project, 'cache');
const bundle = () => workerBundle({ configPath: configPath(), cacheDir: cacheDir() });

const config = (greeting: string): string => `name = "bundle-cache"\nmain = "src/index.ts"\ncompatibility_date = "2026-11-01"\n\n[vars]\nGREETING = "${greeting}"\n`;
const entry = (word: string): string => `import { suffix } from './suffix.ts';\nexport default { fetch: () => new Response('${word}' + suffix) };\n`;

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'tau2-edge-bundle-'));
  await mkdir(path.join(project, 'src'));
  await writeFile(configPath(), config('hello'));
  await writeFile(path.join(project, 'src', 'index.ts'), entry('first-source'));
  await writeFile(path.join(project, 'src', 'suffix.ts'), `export const suffix = '-first-suffix';\n`);
});
afterAll(() => rm(project, { recursive: true, force: true }));

describe('the worker bundle cache', () => {
  it('reuses the bundle of unchanged sources and rebuilds when a source, an imported module or the config changes', async () => {
    const first = await bundle();
    expect(first.built).toBe(true);
    expect(first.name).toBe('bundle-cache');
    expect(await readFile(first.scriptPath, 'utf8')).toContain('first-source');

    const again = await bundle();
    expect(again).toMatchObject({ built: false, dir: first.dir, scriptPath: first.scriptPath });
    expect(again.workerOptions.bindings).toEqual(first.workerOptions.bindings);

    await writeFile(path.join(project, 'src', 'index.ts'), entry('second-source'));
    const changedSource = await bundle();
    expect(changedSource.built).toBe(true);
    expect(changedSource.dir).not.toBe(first.dir);
    expect(await readFile(changedSource.scriptPath, 'utf8')).toContain('second-source');

    await writeFile(path.join(project, 'src', 'suffix.ts'), `export const suffix = '-second-suffix';\n`);
    const changedImport = await bundle();
    expect(changedImport.built).toBe(true);
    expect(await readFile(changedImport.scriptPath, 'utf8')).toContain('-second-suffix');

    await writeFile(configPath(), config('goodbye'));
    const changedConfig = await bundle();
    expect(changedConfig.built).toBe(true);
    expect(changedConfig.workerOptions.bindings).toMatchObject({ GREETING: 'goodbye' });
    expect(await bundle()).toMatchObject({ built: false, dir: changedConfig.dir });
  }, 240_000);

  it('reads the options afresh, and never writes them to the cache, when a local variables file holds secrets', async () => {
    await writeFile(path.join(project, '.dev.vars'), 'LOCAL_SECRET=sk-local-secret-value\n');
    const ownCache = path.join(project, 'cache-with-vars');
    try {
      const built = await workerBundle({ configPath: configPath(), cacheDir: ownCache });
      const reused = await workerBundle({ configPath: configPath(), cacheDir: ownCache });
      expect(built.built).toBe(true);
      expect(reused).toMatchObject({ built: false, dir: built.dir });
      for (const { workerOptions } of [built, reused]) expect(workerOptions.bindings).toMatchObject({ LOCAL_SECRET: 'sk-local-secret-value' });
      const entryFiles = await readdir(path.dirname(built.dir), { recursive: true });
      const texts = await Promise.all(entryFiles.filter((f) => f.endsWith('.json')).map((f) => readFile(path.join(path.dirname(built.dir), f), 'utf8')));
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text).not.toContain('sk-local-secret-value');
    } finally {
      await rm(path.join(project, '.dev.vars'));
    }
  }, 120_000);
});
