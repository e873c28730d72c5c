// Reference data fetch: fills data/tau2/ from a local copy or the pinned upstream commit, each file checked by sha256.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tau2Data from './tau2-data.json' with { type: 'json' };

/** One reference file: where it goes under the data folder, its sum, and where upstream keeps it. */
export interface DataFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly upstream_path: string;
}

/** The project's own list of reference files (scripts/tau2-data.json). */
export interface DataManifest {
  readonly upstream: { readonly repo: string; readonly commit: string; readonly license: string };
  readonly files: readonly DataFile[];
}

/** Fetches a URL's body; throws when it cannot. */
export type Download = (url: string) => Promise<Uint8Array>;

export interface FetchDataOptions {
  /** Folder to fill; the layout mirrors upstream `data/tau2/`. */
  readonly destDir: string;
  /** A local copy with the same layout, tried before downloading. */
  readonly sourceDir?: string;
  /** How to download a file that no local copy has; without it, such a file is an error. */
  readonly download?: Download;
  readonly manifest?: DataManifest;
}

export interface FetchDataReport {
  readonly present: readonly string[];
  readonly copied: readonly string[];
  readonly downloaded: readonly string[];
}

/** A file that could not be put in place, and why. */
export interface DataFileFailure {
  readonly path: string;
  readonly reason: string;
}

export class DataFetchError extends Error {
  readonly failures: readonly DataFileFailure[];

  constructor(failures: readonly DataFileFailure[]) {
    super(
      `${failures.length} reference data file(s) could not be fetched:\n` +
        failures.map((f) => `  ${f.path}: ${f.reason}`).join('\n'),
    );
    this.name = 'DataFetchError';
    this.failures = failures;
  }
}

export const defaultManifest: DataManifest = tau2Data;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export const upstreamUrl = (manifest: DataManifest, file: DataFile): string =>
  `https://raw.githubusercontent.com/${manifest.upstream.repo}/${manifest.upstream.commit}/${file.upstream_path}`;

export const httpDownload: Download = async (url) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText} from ${url}`);
  return new Uint8Array(await response.arrayBuffer());
};

/** An error's message, with its cause's (fetch hides the network reason there). */
export const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  return error.cause === undefined ? error.message : `${error.message} (${describe(error.cause)})`;
};

const readIfPresent = async (file: string): Promise<Uint8Array | undefined> => {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

const mismatch = (file: DataFile, bytes: Uint8Array, origin: string): string | undefined => {
  const actual = sha256Hex(bytes);
  return actual === file.sha256
    ? undefined
    : `sha256 mismatch in ${origin}: expected ${file.sha256} (${file.bytes} bytes), ` +
        `got ${actual} (${bytes.byteLength} bytes)`;
};

/** Writes through a temporary name, so an interrupted run never leaves a partial file under the right name. */
const writeAtomically = async (target: string, bytes: Uint8Array): Promise<void> => {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.partial`;
  await writeFile(temporary, bytes);
  await rename(temporary, target);
};

type Outcome = 'present' | 'copied' | 'downloaded';

const fetchOne = async (file: DataFile, options: FetchDataOptions, manifest: DataManifest): Promise<Outcome> => {
  const target = path.join(options.destDir, file.path);
  const existing = await readIfPresent(target);
  if (existing && !mismatch(file, existing, target)) return 'present';

  if (options.sourceDir) {
    const sourceFile = path.join(options.sourceDir, file.path);
    const copy = await readIfPresent(sourceFile);
    if (copy) {
      const problem = mismatch(file, copy, sourceFile);
      if (problem) throw new Error(problem);
      await writeAtomically(target, copy);
      return 'copied';
    }
  }

  const where = options.sourceDir ? `not in ${options.sourceDir}` : 'no local copy';
  if (!options.download) throw new Error(`missing (${where}, and downloading is off)`);
  const url = upstreamUrl(manifest, file);
  let body: Uint8Array;
  try {
    body = await options.download(url);
  } catch (error) {
    throw new Error(`missing (${where}) and download failed: ${describe(error)}`);
  }
  const problem = mismatch(file, body, url);
  if (problem) throw new Error(problem);
  await writeAtomically(target, body);
  return 'downloaded';
};

/** Puts every manifest file under `destDir`, verified; throws a DataFetchError naming each file that failed. */
export const fetchData = async (options: FetchDataOptions): Promise<FetchDataReport> => {
  const manifest = options.manifest ?? defaultManifest;
  const report = { present: [] as string[], copied: [] as string[], downloaded: [] as string[] };
  const failures: DataFileFailure[] = [];
  for (const file of manifest.files) {
    try {
      report[await fetchOne(file, options, manifest)].push(file.path);
    } catch (error) {
      failures.push({ path: file.path, reason: describe(error) });
    }
  }
  if (failures.length > 0) throw new DataFetchError(failures);
  return report;
};

/** `$TAU2_DATA_DIR` if set, else `../shared/tau2` beside the repository when it exists, else none. */
export const defaultSourceDir = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  if (env.TAU2_DATA_DIR) return path.resolve(env.TAU2_DATA_DIR);
  const shared = path.resolve(repoRoot, '..', 'shared', 'tau2');
  return existsSync(shared) ? shared : undefined;
};

export const defaultDestDir = (): string => path.join(repoRoot, 'data', 'tau2');

const main = async (): Promise<void> => {
  const sourceDir = defaultSourceDir();
  if (sourceDir && !existsSync(sourceDir)) throw new Error(`TAU2_DATA_DIR=${sourceDir} does not exist`);
  const destDir = defaultDestDir();
  const download: Download = (url) => {
    console.log(`downloading ${url}`);
    return httpDownload(url);
  };
  const report = await fetchData({ destDir, sourceDir, download });
  const parts = [
    report.present.length > 0 ? `${report.present.length} already present` : '',
    report.copied.length > 0 ? `${report.copied.length} copied from ${sourceDir}` : '',
    report.downloaded.length > 0 ? `${report.downloaded.length} downloaded` : '',
  ].filter(Boolean);
  console.log(`reference data: ${path.relative(process.cwd(), destDir) || '.'} verified (${parts.join(', ')})`);
};

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(`fetch-data: ${describe(error)}`);
    process.exitCode = 1;
  });
}
