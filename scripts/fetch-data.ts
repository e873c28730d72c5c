// Reference data fetch: fills data/tau2/ from a local copy or the pinned upstream commit, each file checked by sha256.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
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
  /** Where upstream files are downloaded from (raw.githubusercontent.com by default). */
  readonly baseUrl?: string;
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

/** Failures listed one by one in a message at most; the others are counted. */
const LISTED_FAILURES = 10;

export class DataFetchError extends Error {
  readonly failures: readonly DataFileFailure[];

  constructor(failures: readonly DataFileFailure[]) {
    const listed = failures.slice(0, LISTED_FAILURES).map((f) => `  ${f.path}: ${f.reason}`);
    if (failures.length > LISTED_FAILURES) listed.push(`  … and ${failures.length - LISTED_FAILURES} more`);
    super(`${failures.length} reference data file(s) could not be fetched:\n${listed.join('\n')}`);
    this.name = 'DataFetchError';
    this.failures = failures;
  }
}

export const defaultManifest: DataManifest = tau2Data;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export const UPSTREAM_BASE_URL = 'https://raw.githubusercontent.com';

export const upstreamUrl = (manifest: DataManifest, file: DataFile, baseUrl: string = UPSTREAM_BASE_URL): string =>
  `${baseUrl.replace(/\/+$/, '')}/${manifest.upstream.repo}/${manifest.upstream.commit}/${file.upstream_path}`;

/** How long a download waits for the server to answer at all, and for the whole file. */
const ANSWER_TIMEOUT_MS = 15_000;
const DOWNLOAD_TIMEOUT_MS = 120_000;

/** A download that could not reach the server (no network, no DNS, nothing listening, no answer): the next ones would not either. */
export class UnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    super(`cannot reach ${new URL(url).origin}: ${describe(cause)}`, { cause });
    this.name = 'UnreachableError';
  }
}

export const httpDownload: Download = async (url) => {
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(new Error(`no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)), ANSWER_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.any([waiting.signal, AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS)]) });
  } catch (error) {
    throw new UnreachableError(url, error);
  } finally {
    // Answered: from here only the whole file's time limit applies.
    clearTimeout(timer);
  }
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
  const url = upstreamUrl(manifest, file, options.baseUrl);
  let body: Uint8Array;
  try {
    body = await options.download(url);
  } catch (error) {
    if (error instanceof UnreachableError) throw error;
    throw new Error(`missing (${where}) and download failed: ${describe(error)}`);
  }
  const problem = mismatch(file, body, url);
  if (problem) throw new Error(problem);
  await writeAtomically(target, body);
  return 'downloaded';
};

/** The data could not be downloaded at all: the first download could not reach the server, so no other was tried. */
export class OfflineError extends Error {
  readonly missing: number;

  constructor(reason: string, missing: number) {
    super(reason);
    this.name = 'OfflineError';
    this.missing = missing;
  }
}

/**
 * Puts every manifest file under `destDir`, verified; throws a DataFetchError naming the files that failed, or an
 * OfflineError as soon as a download cannot reach the server (the others would wait for nothing as well).
 */
export const fetchData = async (options: FetchDataOptions): Promise<FetchDataReport> => {
  const manifest = options.manifest ?? defaultManifest;
  const report = { present: [] as string[], copied: [] as string[], downloaded: [] as string[] };
  const failures: DataFileFailure[] = [];
  for (const [at, file] of manifest.files.entries()) {
    try {
      report[await fetchOne(file, options, manifest)].push(file.path);
    } catch (error) {
      if (error instanceof UnreachableError) throw new OfflineError(error.message, failures.length + manifest.files.length - at);
      failures.push({ path: file.path, reason: describe(error) });
    }
  }
  if (failures.length > 0) throw new DataFetchError(failures);
  return report;
};

/** What to do when the data cannot be downloaded: the other ways to get it. */
export const offlineAdvice = (error: OfflineError, manifest: DataManifest, destDir: string): string =>
  [
    `fetch-data: ${error.missing} reference data file(s) are missing in ${destDir}, and downloading failed: ${error.message}`,
    'Get the data one of these ways, then run `npm run fetch-data` again:',
    `  - TAU2_DATA_DIR=/path/to/data/tau2 npm run fetch-data   (the data/tau2 folder of a tau2-bench checkout at ${manifest.upstream.commit.slice(0, 12)}; every file is checked by its sha256)`,
    '  - put that folder at ../shared/tau2, beside this checkout',
    `  - run it where ${new URL(UPSTREAM_BASE_URL).host} is reachable (or point TAU2_DATA_BASE_URL at a mirror)`,
  ].join('\n');

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
  // --dest: another folder to fill (e.g. a check of a fresh clone), data/tau2 by default.
  const { values } = parseArgs({ options: { dest: { type: 'string' } } });
  const destDir = values.dest === undefined ? defaultDestDir() : path.resolve(values.dest);
  const download: Download = (url) => {
    console.log(`downloading ${url}`);
    return httpDownload(url);
  };
  let report: FetchDataReport;
  try {
    report = await fetchData({ destDir, sourceDir, download, baseUrl: process.env.TAU2_DATA_BASE_URL || UPSTREAM_BASE_URL });
  } catch (error) {
    if (!(error instanceof OfflineError)) throw error;
    console.error(offlineAdvice(error, defaultManifest, destDir));
    process.exitCode = 1;
    return;
  }
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
