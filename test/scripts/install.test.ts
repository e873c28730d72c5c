// What `npm ci` installs: one workerd for wrangler, miniflare and the worker tier's vitest plugin, no native builds
// of packages the project never loads, and each tarball straight from its locked URL.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '../..');

interface LockedPackage {
  readonly version?: string;
  readonly resolved?: string;
  readonly integrity?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
}
interface Manifest {
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly overrides: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly allowScripts: Readonly<Record<string, boolean>>;
}

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(path.join(root, file), 'utf8')) as T;

/** The locked versions of a package, wherever in node_modules it is installed. */
const lockedVersions = (packages: Readonly<Record<string, LockedPackage>>, name: string): Set<string | undefined> =>
  new Set(
    Object.entries(packages)
      .filter(([where]) => where === `node_modules/${name}` || where.endsWith(`/node_modules/${name}`))
      .map(([, locked]) => locked.version),
  );

const sourceFiles = async (dir: string): Promise<string[]> => {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => path.join(entry.parentPath, entry.name));
};

describe('the install', () => {
  it('locks one workerd, wrangler and miniflare: the vitest plugin runs on those of the project', async () => {
    const manifest = await readJson<Manifest>('package.json');
    const { packages } = await readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    const { wrangler, miniflare } = manifest.devDependencies;
    expect(manifest.overrides['@cloudflare/vitest-plugin']).toMatchObject({ wrangler, miniflare });
    expect(lockedVersions(packages, 'wrangler')).toEqual(new Set([wrangler]));
    expect(lockedVersions(packages, 'miniflare')).toEqual(new Set([miniflare]));
    const workerd = packages['node_modules/wrangler']?.dependencies?.workerd;
    expect(workerd).toBeDefined();
    expect(lockedVersions(packages, 'workerd')).toEqual(new Set([workerd]));
    expect(lockedVersions(packages, '@cloudflare/workerd-linux-64')).toEqual(new Set([workerd]));
  });

  it('locks the tarball URL of every package: npm ci fetches no registry metadata to find them', async () => {
    const { packages } = await readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    const fromRegistry = Object.entries(packages).filter(([, locked]) => locked.integrity !== undefined);
    expect(fromRegistry.length).toBeGreaterThan(500);
    for (const [where, locked] of fromRegistry) {
      expect(locked.resolved, where).toMatch(/^https:\/\/registry\.npmjs\.org\/.+\.tgz$/);
    }
    // A user-wide omit-lockfile-registry-resolved would drop them again at the next `npm install`.
    expect(await readFile(path.join(root, '.npmrc'), 'utf8')).toMatch(/^omit-lockfile-registry-resolved=false$/m);
  });

  it('builds no native module that the code never imports: just-bash is used through its browser build', async () => {
    const { allowScripts } = await readJson<Manifest>('package.json');
    const denied = Object.keys(allowScripts).filter((name) => !allowScripts[name]);
    expect(denied).toEqual(expect.arrayContaining(['node-liblzma', '@mongodb-js/zstd']));
    // just-bash's Node build loads them for xz and zstd; its browser build has neither.
    const specifiers = [...denied.map((name) => `${name}(/[^']*)?`), 'just-bash(/(?!browser\')[^\']*)?'];
    const imports = new RegExp(`(from |import\\()'(${specifiers.join('|')})'`);
    const files = [...(await sourceFiles('src')), ...(await sourceFiles('scripts'))];
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      expect(await readFile(file, 'utf8'), path.relative(root, file)).not.toMatch(imports);
    }
  });
});
