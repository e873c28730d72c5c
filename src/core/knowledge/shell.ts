// The `shell` tool's sandbox, simulated: bash (just-bash, an interpreter over an in-memory file tree, since
// workerd has no processes) in a copy of the knowledge-base files, with the reference sandbox's refusals, its
// read-only or write mode and its output clean-up. Write-mode changes live in a serialisable ShellState.
// The browser build: the same interpreter in Node and workerd, without the Node-only interpreters.
import { Bash, InMemoryFs, defineCommand, getCommandNames, getNetworkCommandNames } from 'just-bash/browser';
import type { CommandName, IFileSystem } from 'just-bash/browser';
import { z } from 'zod';
import type { KnowledgeDocument } from './documents.ts';
import { DEFAULT_KB_FILE_FORMAT, exportKbFiles } from './kb-files.ts';
import type { KbFileFormat } from './kb-files.ts';
import { escapePattern, refusalMessage, sanitizeListing } from './shell-guard.ts';
import { gnuLs, gnuUniq } from './shell-gnu.ts';

/** The working directory: the reference runs commands in `<temp>/agentic_search_<id>/knowledge_base`. */
export const KB_DIR = '/tmp/agentic_search_sandbox/knowledge_base';

/**
 * The commands of the reference sandbox's host that the simulation provides: shell builtins, coreutils,
 * grep/rg, sed, awk, find, xargs, diff and gzip. Left out: network clients (the sandbox has no
 * network), interpreters, and tools that read the clock.
 */
export const SHELL_COMMANDS: readonly CommandName[] = [
  'echo', 'cat', 'printf', 'ls', 'mkdir', 'rmdir', 'touch', 'rm', 'cp', 'mv', 'ln', 'chmod', 'pwd', 'readlink',
  'head', 'tail', 'wc', 'stat', 'grep', 'fgrep', 'egrep', 'rg', 'sed', 'awk', 'sort', 'uniq', 'comm', 'cut',
  'paste', 'tr', 'rev', 'nl', 'fold', 'expand', 'unexpand', 'strings', 'split', 'column', 'join', 'tee', 'find',
  'basename', 'dirname', 'du', 'env', 'printenv', 'xargs', 'true', 'false', 'bash', 'sh', 'base64', 'diff',
  'seq', 'expr', 'md5sum', 'sha1sum', 'sha256sum', 'file', 'which', 'tac', 'od', 'gzip', 'gunzip', 'zcat',
];

export type ShellMode = 'read' | 'write';

/** What write-mode commands changed, relative to the exported knowledge base (paths relative to KB_DIR). */
export const ShellStateSchema = z.object({
  written: z.record(z.string(), z.string()),
  removed: z.array(z.string()),
  directories: z.array(z.string()),
});
export type ShellState = z.infer<typeof ShellStateSchema>;

export const EMPTY_SHELL_STATE: ShellState = { written: {}, removed: [], directories: [] };

export interface ShellResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface KnowledgeShell {
  readonly mode: ShellMode;
  run(command: string): Promise<ShellResult>;
  /** The changes so far, to persist with the episode and hand back to `createShell`. */
  state(): ShellState;
}

export interface ShellOptions {
  readonly mode: ShellMode;
  readonly format?: KbFileFormat;
  /** Changes of an earlier part of the episode (write mode). */
  readonly state?: ShellState;
}

const READ_ONLY = 'Read-only file system';

/** The reference's answer for a command still running after its 30 s limit. */
export const TIMED_OUT: ShellResult = { exitCode: 124, stdout: '', stderr: 'Command timed out after 30 seconds' };

/** Commands of just-bash's Node build that its browser build only stubs. */
const NODE_ONLY = ['python', 'python3', 'js-exec', 'sqlite3', 'tar'];

/** The interpreter's other commands answer as a command missing from the host would. */
const missingCommands = () => {
  const allowed = new Set<string>(SHELL_COMMANDS);
  const names = [...getCommandNames(), ...getNetworkCommandNames(), ...NODE_ONLY];
  return [...new Set(names)]
    .filter((name) => !allowed.has(name))
    .map((name) =>
      defineCommand(name, async () => ({ stdout: '', stderr: `bash: ${name}: command not found\n`, exitCode: 127 })),
    );
};

class ReadOnlyFileSystemError extends Error {
  readonly code = 'EROFS';
  readonly path: string;
  constructor(path: string) {
    super(READ_ONLY);
    this.path = path;
  }
}

const WRITE_METHODS = new Set(['writeFile', 'appendFile', 'mkdir', 'rm', 'cp', 'mv', 'chmod', 'symlink', 'link', 'utimes']);

const insideKb = (path: string): boolean => path === KB_DIR || path.startsWith(`${KB_DIR}/`);

/** The file tree as the sandbox mounts it: writable inside the knowledge base in write mode, nowhere otherwise. */
const guarded = (fs: InMemoryFs, mode: ShellMode): IFileSystem =>
  new Proxy(fs, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && WRITE_METHODS.has(prop)) {
        return (...args: unknown[]) => {
          // Every write method's last path argument is the one written (the destination of cp, mv, ln).
          const paths = args.filter((arg): arg is string => typeof arg === 'string');
          const written = prop === 'writeFile' || prop === 'appendFile' ? paths.slice(0, 1) : paths.slice(-1);
          const denied = [...(prop === 'mv' || prop === 'rm' ? paths.slice(0, 1) : []), ...written].find(
            (p) => mode === 'read' || !insideKb(target.resolvePath(KB_DIR, p)),
          );
          // Output redirected to /dev/null (`2>/dev/null` passes the sandbox's checks) is discarded.
          if ((prop === 'writeFile' || prop === 'appendFile') && target.resolvePath(KB_DIR, paths[0] ?? '') === '/dev/null') {
            return Promise.resolve();
          }
          if (denied !== undefined) return Promise.reject(new ReadOnlyFileSystemError(denied));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });

const relative = (path: string): string => path.slice(KB_DIR.length + 1);

const baseFiles = (docs: readonly KnowledgeDocument[], format: KbFileFormat): Map<string, string> => exportKbFiles(docs, format);

const buildFs = (base: Map<string, string>, state: ShellState): InMemoryFs => {
  const removed = new Set(state.removed);
  const files: Record<string, string> = {};
  for (const [name, content] of base) if (!removed.has(name)) files[`${KB_DIR}/${name}`] = content;
  for (const [name, content] of Object.entries(state.written)) files[`${KB_DIR}/${name}`] = content;
  const fs = new InMemoryFs(files);
  fs.mkdirSync(KB_DIR, { recursive: true });
  for (const dir of state.directories) fs.mkdirSync(`${KB_DIR}/${dir}`, { recursive: true });
  return fs;
};

/** The tree's differences from the exported knowledge base. */
const diffState = async (fs: InMemoryFs, base: Map<string, string>): Promise<ShellState> => {
  const written: Record<string, string> = {};
  const directories: string[] = [];
  const present = new Set<string>();
  for (const path of fs.getAllPaths().filter((p) => p.startsWith(`${KB_DIR}/`)).sort()) {
    const name = relative(path);
    const stat = await fs.lstat(path);
    if (stat.isDirectory) {
      directories.push(name);
      continue;
    }
    if (!stat.isFile) continue;
    present.add(name);
    const content = await fs.readFile(path);
    if (base.get(name) !== content) written[name] = content;
  }
  const removed = [...base.keys()].filter((name) => !present.has(name));
  return { written, removed, directories };
};

export const createShell = (docs: readonly KnowledgeDocument[], options: ShellOptions): KnowledgeShell => {
  const base = baseFiles(docs, options.format ?? DEFAULT_KB_FILE_FORMAT);
  let current = ShellStateSchema.parse(options.state ?? EMPTY_SHELL_STATE);
  const fs = buildFs(base, current);
  const bash = new Bash({
    fs: guarded(fs, options.mode),
    cwd: KB_DIR,
    commands: [...SHELL_COMMANDS],
    customCommands: [gnuLs, gnuUniq, ...missingCommands()],
    env: { HOME: '/home/kb_user', USER: 'kb_user', LOGNAME: 'kb_user', PATH: '/usr/bin:/bin' },
  });

  const execute = async (command: string): Promise<ShellResult> => {
    try {
      const result = await bash.exec(command);
      // A runaway command hits an interpreter limit; in the reference it runs into the 30 s timeout.
      if (result.stderr.includes('increase executionLimits.')) return TIMED_OUT;
      return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
    } catch (err) {
      // A failed redirection aborts the whole line in the interpreter; bash reports it and carries on.
      if (err instanceof ReadOnlyFileSystemError) {
        const shown = insideKb(err.path) ? relative(err.path) : err.path;
        return { exitCode: 1, stdout: '', stderr: `bash: line 1: ${shown}: ${READ_ONLY}\n` };
      }
      return { exitCode: 1, stdout: '', stderr: `Command failed: ${err instanceof Error ? err.message : String(err)}` };
    }
  };

  return {
    mode: options.mode,
    state: () => current,
    async run(command) {
      const blocked = escapePattern(command);
      if (blocked !== null) return { exitCode: 1, stdout: '', stderr: refusalMessage(blocked) };
      const result = await execute(command);
      if (options.mode === 'write') current = await diffState(fs, base);
      return { exitCode: result.exitCode, stdout: sanitizeListing(result.stdout), stderr: sanitizeListing(result.stderr) };
    },
  };
};

/** The text the agent reads from the `shell` tool for a command's result. */
export const formatShellResult = (command: string, result: ShellResult): string => {
  if (result.exitCode !== 0) {
    // grep exits 1 when nothing matches, which is not an error.
    if (result.exitCode === 1 && command.includes('grep') && !result.stderr) return 'No matches found.';
    if (result.stderr) return `Error (exit code ${result.exitCode}): ${result.stderr}`;
    return `Command failed with exit code ${result.exitCode}`;
  }
  return result.stdout || '(no output)';
};
