// The local Worker's code and settings: the bundle `wrangler deploy --dry-run` builds and wrangler's translation of
// wrangler.toml into Miniflare's options (options.ts). Both cost seconds and several processes, so they are
// kept in a cache entry named by a hash of every file the bundle was built from (esbuild's metafile) and the
// config; a start on an unchanged checkout reuses them, and a changed source builds a new entry.
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Unstable_MiniflareWorkerOptions } from 'wrangler';
import { z } from 'zod';
import { commitBuild, readJson } from './built-entries.ts';
import { latestEntry } from './latest-entry.mjs';
import type { KeyFiles } from './latest-entry.mjs';
import { stagingFolder } from './cache-entries.ts';
import { cacheRoot, repoRoot, wranglerBin } from '../checkout.mjs';

export type WorkerOptions = Omit<Unstable_MiniflareWorkerOptions['workerOptions'], 'modulesRules'>;

export interface WorkerBundle {
  /** The bundle's folder (Miniflare's modulesRoot) and its main module in it. */
  readonly dir: string;
  readonly scriptPath: string;
  readonly name: string;
  readonly workerOptions: WorkerOptions;
  /** Whether this call built the bundle (false: an entry built earlier from the same inputs). */
  readonly built: boolean;
}

export interface WorkerBundleOptions {
  /** The Worker's wrangler config; the files it names are read relative to its folder. */
  readonly configPath?: string;
  readonly cacheDir?: string;
}

export const defaultBundleCacheDir = path.join(cacheRoot, 'worker-bundle');

const OPTIONS = 'options.json';

const PrintedOptionsSchema = z.object({ name: z.string(), main: z.string(), workerOptions: z.record(z.string(), z.unknown()) });
type PrintedOptions = z.infer<typeof PrintedOptionsSchema>;

const MetafileSchema = z.object({ inputs: z.record(z.string(), z.unknown()) });

/** Files that shape the bundle without being one of its modules: how sources resolve and compile, and wrangler itself. */
const BUILD_SETTINGS = ['package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.worker.json'];
const wranglerPackage = path.join(repoRoot, 'node_modules', 'wrangler', 'package.json');

/** The files an entry depends on: the config, wrangler, the build settings and every input. */
const keyFiles =
  (root: string, configPath: string): KeyFiles =>
  (inputs) => [configPath, wranglerPackage, ...BUILD_SETTINGS.map((f) => path.join(root, f)), ...inputs.map((f) => path.resolve(root, f))];

/**
 * Local variable files (.dev.vars, .env and their variants) that wrangler folds into the options as bindings: they
 * hold secrets, so options read with one present are read afresh on every start rather than written to the cache.
 * An `.example` file (the committed .dev.vars.example) lists names only and is no environment wrangler reads.
 */
const isLocalVarsFile = (name: string): boolean => (name.startsWith('.dev.vars') || name === '.env' || name.startsWith('.env.')) && !name.endsWith('.example');
const hasLocalVarsFiles = async (root: string): Promise<boolean> => (await readdir(root)).some(isLocalVarsFile);

const optionsScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'options.ts');

/** wrangler's options for the config, in a process of its own (options.ts says why). */
const printOptions = async (root: string, configPath: string): Promise<PrintedOptions> => {
  const { execa } = await import('execa');
  // Only errors from wrangler's logger: its notes (e.g. "Using secrets defined in .dev.vars") go to stdout too.
  const printed = await execa(process.execPath, [optionsScript, configPath], { cwd: root, env: { WRANGLER_LOG: 'error' }, reject: false });
  if (printed.failed) throw new Error(`Reading ${path.basename(configPath)} failed:\n${printed.stderr}`);
  return PrintedOptionsSchema.parse(JSON.parse(printed.stdout));
};

/** Writes the options beside an entry's bundle (whole or not at all: a reader may be starting from it). */
const writeOptions = async (entry: string, options: PrintedOptions): Promise<void> => {
  const file = path.join(entry, OPTIONS);
  await writeFile(`${file}.${process.pid}`, JSON.stringify(options));
  await rename(`${file}.${process.pid}`, file);
};

const asBundle = (dir: string, options: PrintedOptions, built: boolean): WorkerBundle => ({
  dir: path.join(dir, 'bundle'),
  scriptPath: path.join(dir, 'bundle', path.basename(options.main, path.extname(options.main)) + '.js'),
  name: options.name,
  workerOptions: options.workerOptions as WorkerOptions,
  built,
});

/** Builds a new entry and makes it the latest; concurrent builders of the same inputs end with the same entry. */
const build = async (root: string, configPath: string, cacheDir: string, withOptions: boolean): Promise<{ entry: string; options: PrintedOptions }> => {
  const staging = await stagingFolder(cacheDir);
  const { execa } = await import('execa');
  // The bundle and the options side by side, awaited one after the other: Promise.all over execa's subprocess
  // type costs the typecheck seconds.
  const building = execa(wranglerBin, ['deploy', '--dry-run', '--outdir', path.join(staging, 'bundle'), '--metafile', path.join(staging, 'meta.json'), '--config', configPath], {
    cwd: root,
    env: { CI: 'true' },
    all: true,
    reject: false,
  });
  const options = await printOptions(root, configPath);
  const built = await building;
  if (built.failed) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`Building the Worker bundle failed:\n${built.all ?? ''}`);
  }
  const meta = MetafileSchema.parse(JSON.parse(await readFile(path.join(staging, 'meta.json'), 'utf8')));
  if (withOptions) await writeOptions(staging, options);
  const entry = await commitBuild(cacheDir, staging, keyFiles(root, configPath), Object.keys(meta.inputs).sort());
  return { entry, options };
};

/** The Worker's bundle and options: the cached entry when its inputs are unchanged, else a new build. */
export const workerBundle = async ({ configPath = path.join(repoRoot, 'wrangler.toml'), cacheDir = defaultBundleCacheDir }: WorkerBundleOptions = {}): Promise<WorkerBundle> => {
  const root = path.dirname(configPath);
  const cacheOptions = !(await hasLocalVarsFiles(root));
  const entry = await latestEntry(cacheDir, keyFiles(root, configPath));
  if (entry !== null) {
    const cached = cacheOptions ? await readJson(path.join(entry, OPTIONS), PrintedOptionsSchema) : null;
    if (cached !== null) return asBundle(entry, cached, false);
    const printed = await printOptions(root, configPath);
    // An entry built while a local variables file was present holds no options: the next start reuses these.
    if (cacheOptions) await writeOptions(entry, printed);
    return asBundle(entry, printed, false);
  }
  const fresh = await build(root, configPath, cacheDir, cacheOptions);
  return asBundle(fresh.entry, fresh.options, true);
};
