// The `shell` tool's sandbox, simulated: bash (just-bash, an interpreter over an in-memory file tree, since
// workerd has no processes) in a copy of the knowledge-base files, with the reference sandbox's refusals, its
// read-only or write mode and its output clean-up. Write-mode changes live in a serialisable ShellState.
// The browser build: the same interpreter in Node and workerd, without the Node-only interpreters.
// Only types from the interpreter here: its code loads on a shell's first command (shell-interpreter.ts).
import type { CommandName } from 'just-bash/browser';
import type { KnowledgeDocument } from './documents.ts';
import { DEFAULT_KB_FILE_FORMAT, exportKbFiles } from './kb-files.ts';
import type { KbFileFormat } from './kb-files.ts';
import { escapePattern, refusalMessage, sanitizeListing } from './shell-guard.ts';
import type { Interpreter } from './shell-interpreter.ts';
import { EMPTY_SHELL_STATE, KB_DIR, READ_ONLY, ReadOnlyFileSystemError, ShellStateSchema, diffState, insideKb, relative } from './shell-tree.ts';
import type { ShellMode, ShellState } from './shell-tree.ts';

export { EMPTY_SHELL_STATE, KB_DIR, ShellStateSchema } from './shell-tree.ts';
export type { ShellMode, ShellState } from './shell-tree.ts';

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


/**
 * Bounds on one command, beyond the interpreter's own step limits: the reference's 30 s, and the memory a hosted
 * episode may hold (its files are part of the episode's state): output and the file tree (the knowledge base is
 * about 3 MB) stay within a few times the knowledge base.
 */
export const SHELL_LIMITS = { maxExecutionTimeMs: 30_000, maxOutputSize: 16 * 2 ** 20, maxFileSystemBytes: 32 * 2 ** 20 } as const;

/** The sandbox user's environment. */
const SHELL_ENV = { HOME: '/home/kb_user', USER: 'kb_user', LOGNAME: 'kb_user', PATH: '/usr/bin:/bin' };

/** The reference's answer for a command still running after its 30 s limit. */
export const TIMED_OUT: ShellResult = { exitCode: 124, stdout: '', stderr: 'Command timed out after 30 seconds' };

/** The exported files per knowledge base and format, shared read-only by every shell over them. */
const exports = new WeakMap<readonly KnowledgeDocument[], Map<KbFileFormat, ReadonlyMap<string, string>>>();

const exportedFiles = (docs: readonly KnowledgeDocument[], format: KbFileFormat): ReadonlyMap<string, string> => {
  let byFormat = exports.get(docs);
  if (!byFormat) exports.set(docs, (byFormat = new Map()));
  let files = byFormat.get(format);
  if (!files) byFormat.set(format, (files = exportKbFiles(docs, format)));
  return files;
};

/** What a write-mode shell may write beyond the knowledge base: its files are stored with the episode. */
export const WRITE_BUDGET_BYTES = 256 * 1024;

/** The answer when a command's writes would pass the budget: as bash reports a full disk. Nothing is kept. */
export const DISK_FULL: ShellResult = { exitCode: 1, stdout: '', stderr: 'bash: line 1: write error: No space left on device\n' };

const writtenBytes = (state: ShellState): number =>
  Object.entries(state.written).reduce((sum, [name, content]) => sum + name.length + new TextEncoder().encode(content).length, 0);

export const createShell = (docs: readonly KnowledgeDocument[], options: ShellOptions): KnowledgeShell => {
  const base = exportedFiles(docs, options.format ?? DEFAULT_KB_FILE_FORMAT);
  let current = ShellStateSchema.parse(options.state ?? EMPTY_SHELL_STATE);
  const open = async (state: ShellState): Promise<Interpreter> => {
    const { openInterpreter } = await import('./shell-interpreter.ts');
    return openInterpreter(base, state, { mode: options.mode, commands: SHELL_COMMANDS, env: SHELL_ENV, executionLimits: SHELL_LIMITS });
  };
  // Opened on the first command, so that a shell (and its isolate) that runs none never loads the interpreter.
  let tree: Promise<Interpreter> | null = null;
  const interpreter = (): Promise<Interpreter> => (tree ??= open(current));

  const execute = async (bash: Interpreter['bash'], command: string): Promise<ShellResult> => {
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
      const opened = await interpreter();
      const result = await execute(opened.bash, command);
      if (options.mode === 'write') {
        const next = await diffState(opened.fs, base);
        if (writtenBytes(next) > WRITE_BUDGET_BYTES) {
          // The files go back to what they were before this command (reopened on the next one).
          tree = null;
          return DISK_FULL;
        }
        current = next;
      }
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
