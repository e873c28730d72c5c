// The local worker's bundle cache: an unchanged project reuses its entry, and a changed imported module or a
// changed config builds a new one that holds the change; options read with a local variables file present are
// read afresh and never written to the cache (a .env too); a .dev.vars.example is no such file.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerBundle } from '../../src/cli/local/bundle.ts';

let project: string;
const configPath = (): string => path.join(project, 'wrangler.toml');
const bundle = () => workerBundle({ configPath: configPath(), cacheDir: path.join(project, 'cache') });

const config = (greeting: string): string => `name = "bundle-cache"\nmain = "src/index.ts"\ncompatibility_date = "2026-11-01"\n\n[vars]\nGREETING = "${greeting}"\n`;
const suffix = (word: string): string => `export const suffix = '${word}';\n`;
const SECRET = 'sk-local-secret-value';

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'tau2-edge-bundle-'));
  await mkdir(path.join(project, 'src'));
  await writeFile(configPath(), config('hello'));
  await writeFile(path.join(project, 'src', 'index.ts'), `import { suffix } from './suffix.ts';\nexport default { fetch: () => new Response('source-' + suffix) };\n`);
  await writeFile(path.join(project, 'src', 'suffix.ts'), suffix('first-suffix'));
});
afterAll(() => rm(project, { recursive: true, force: true }));

describe('the worker bundle cache', () => {
  it('reuses the bundle of unchanged sources and rebuilds when a module the bundle imports changes', async () => {
    const first = await bundle();
    expect(first.built).toBe(true);
    expect(first.name).toBe('bundle-cache');
    expect(await readFile(first.scriptPath, 'utf8')).toContain('first-suffix');

    const again = await bundle();
    expect(again).toMatchObject({ built: false, dir: first.dir, scriptPath: first.scriptPath });
    expect(again.workerOptions.bindings).toEqual(first.workerOptions.bindings);

    await writeFile(path.join(project, 'src', 'suffix.ts'), suffix('second-suffix'));
    const changed = await bundle();
    expect(changed.built).toBe(true);
    expect(changed.dir).not.toBe(first.dir);
    expect(await readFile(changed.scriptPath, 'utf8')).toContain('second-suffix');
    expect(await bundle()).toMatchObject({ built: false, dir: changed.dir });
  }, 240_000);

  it('rebuilds when the config changes; with a .dev.vars, reads the options afresh and never writes them to the cache', async () => {
    await writeFile(path.join(project, '.dev.vars'), `LOCAL_SECRET=${SECRET}\n`);
    try {
      await writeFile(configPath(), config('goodbye'));
      const built = await bundle();
      const reused = await bundle();
      expect(built.built).toBe(true);
      expect(reused).toMatchObject({ built: false, dir: built.dir });
      for (const { workerOptions } of [built, reused]) expect(workerOptions.bindings).toMatchObject({ GREETING: 'goodbye', LOCAL_SECRET: SECRET });
      const cacheDir = path.join(project, 'cache');
      const files = (await readdir(cacheDir, { recursive: true })).filter((f) => f.endsWith('.json'));
      expect(files.some((f) => f.endsWith('options.json'))).toBe(true);
      for (const file of files) expect(await readFile(path.join(cacheDir, file), 'utf8')).not.toContain(SECRET);
    } finally {
      await rm(path.join(project, '.dev.vars'));
    }
  }, 240_000);

  it('a .dev.vars.example (names, no values) does not keep options out of the cache; an entry built without them gets them on reuse', async () => {
    await writeFile(path.join(project, '.dev.vars'), `LOCAL_SECRET=${SECRET}\n`);
    await writeFile(configPath(), config('with-vars'));
    const built = await bundle();
    const options = path.join(path.dirname(built.dir), 'options.json');
    await expect(readFile(options, 'utf8')).rejects.toThrow();
    await rm(path.join(project, '.dev.vars'));
    await writeFile(path.join(project, '.dev.vars.example'), '# LOCAL_SECRET=\n');
    try {
      const reused = await bundle();
      expect(reused).toMatchObject({ built: false, dir: built.dir });
      expect(reused.workerOptions.bindings).toMatchObject({ GREETING: 'with-vars' });
      expect(reused.workerOptions.bindings).not.toHaveProperty('LOCAL_SECRET');
      expect(JSON.parse(await readFile(options, 'utf8'))).toMatchObject({ name: 'bundle-cache' });
    } finally {
      await rm(path.join(project, '.dev.vars.example'));
    }
  }, 240_000);

  it('with only a .env (a provider key), the options are read whatever wrangler prints, and the key stays out of the cache', async () => {
    await writeFile(path.join(project, '.env'), `OPENAI_API_KEY=${SECRET}\n`);
    try {
      await writeFile(configPath(), config('dot-env'));
      for (const { workerOptions } of [await bundle(), await bundle()]) expect(workerOptions.bindings).toMatchObject({ GREETING: 'dot-env', OPENAI_API_KEY: SECRET });
      const cacheDir = path.join(project, 'cache');
      const files = (await readdir(cacheDir, { recursive: true })).filter((f) => f.endsWith('.json'));
      for (const file of files) expect(await readFile(path.join(cacheDir, file), 'utf8')).not.toContain(SECRET);
    } finally {
      await rm(path.join(project, '.env'));
    }
  }, 240_000);
});
