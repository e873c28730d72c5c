// The command line's own modules built into one ES module, so that a command starts without Node resolving,
// reading and type-stripping several hundred source files: a build cache entry (local/built-entries.ts) named by
// every file the bundle was built from, rebuilt when one changes. When the build fails, the command runs from
// its sources as it would without the bundle. The same entry holds the local runtime (local/runtime.ts) as a
// module of its own, which a `run` starts before this one is read (local/runtime-group.mjs). An unchanged
// checkout's entry is found without this module (cli-entry.mjs); it builds and loads the others.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { commitBuild } from './local/built-entries.ts';
import { stagingFolder } from './local/cache-entries.ts';
import { repoRoot } from './checkout.mjs';
import { MAIN_BUNDLE, RUNTIME_BUNDLE, cliCacheDir, cliKeyFiles, latestCliEntry, mainOf, noteCommandEntry } from './cli-entry.mjs';

type MainModule = typeof import('./main.ts');

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(here, 'main.ts');
const RUNTIME = path.join(here, 'local', 'runtime.ts');
/**
 * Kept out of the bundle, loaded from their sources: the state bin.mjs shares with the command (the runtime it
 * started early, the entry it runs from) stays one module instance for both.
 */
const SHARED_WITH_BIN = [path.join(here, 'local', 'runtime-group.mjs'), path.join(here, 'cli-entry.mjs')];
/**
 * Packages left to Node: wrangler's and miniflare's modules find their own files beside them (and run in other
 * processes), and esbuild is the builder itself.
 */
const EXTERNAL_PACKAGES = ['esbuild', 'miniflare', 'wrangler'];
/**
 * The project's modules keep the location of their source file in `import.meta` (they find the checkout, its
 * data and their sibling scripts from it), and the modules shared with bin.mjs stay one module each.
 */
const LOCATION = /\bimport\.meta\.(url|filename|dirname)\b/g;
const sourceLocations: Plugin = {
  name: 'source-locations',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      return SHARED_WITH_BIN.includes(file) ? { path: pathToFileURL(file).href, external: true } : undefined;
    });
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      const location = { url: pathToFileURL(args.path).href, filename: args.path, dirname: path.dirname(args.path) };
      const contents = source.replaceAll(LOCATION, (_, field: keyof typeof location) => JSON.stringify(location[field]));
      return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

/** Builds the bundle into a new cache entry; answers the entry's folder. */
const build = async (cacheDir: string): Promise<string> => {
  const { build: esbuild } = await import('esbuild');
  const staging = await stagingFolder(cacheDir);
  const result = await esbuild({
    entryPoints: { [path.basename(MAIN_BUNDLE, '.mjs')]: MAIN, [path.basename(RUNTIME_BUNDLE, '.mjs')]: RUNTIME },
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    absWorkingDir: repoRoot,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    external: EXTERNAL_PACKAGES,
    plugins: [sourceLocations],
    metafile: true,
    logLevel: 'silent',
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  });
  return commitBuild(cacheDir, staging, cliKeyFiles, Object.keys(result.metafile.inputs).sort());
};

/** The bundle's entry: the latest when the sources are unchanged, else a new build. */
export const cliBundleEntry = async (cacheDir: string = cliCacheDir): Promise<string> => (await latestCliEntry(cacheDir)) ?? build(cacheDir);

/** The command line's main module: the bundle of an unchanged checkout, a new bundle, or the sources when building fails. */
export const loadMain = async (cacheDir: string = cliCacheDir): Promise<MainModule> => {
  const entry = await cliBundleEntry(cacheDir).catch(() => null);
  if (entry !== null) return (await mainOf(entry)) as MainModule;
  noteCommandEntry(null);
  return import('./main.ts');
};
