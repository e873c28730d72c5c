// The interpreter of a shell (just-bash) over its file tree. shell.ts loads this module with a dynamic import on
// a shell's first command: the interpreter is a sixth of the Worker bundle's code and its top level takes tens of
// milliseconds to evaluate, which an isolate that runs no shell command (most do not) never pays at start.
import { Bash, InMemoryFs, defineCommand, getCommandNames, getNetworkCommandNames } from 'just-bash/browser';
import type { BashOptions, CommandName } from 'just-bash/browser';
import { gnuLs, gnuUniq } from './shell-gnu.ts';
import { KB_DIR, guarded } from './shell-tree.ts';
import type { ShellMode, ShellState } from './shell-tree.ts';

/** Commands of just-bash's Node build that its browser build only stubs. */
const NODE_ONLY = ['python', 'python3', 'js-exec', 'sqlite3', 'tar'];

/** The interpreter's other commands answer as a command missing from the host would. */
const missingCommands = (commands: readonly CommandName[]) => {
  const allowed = new Set<string>(commands);
  const names = [...getCommandNames(), ...getNetworkCommandNames(), ...NODE_ONLY];
  return [...new Set(names)]
    .filter((name) => !allowed.has(name))
    .map((name) =>
      defineCommand(name, async () => ({ stdout: '', stderr: `bash: ${name}: command not found\n`, exitCode: 127 })),
    );
};

/** The tree of the exported files (name → content) with a state's changes applied. */
const buildFs = (base: ReadonlyMap<string, string>, state: ShellState): InMemoryFs => {
  const removed = new Set(state.removed);
  const files: Record<string, string> = {};
  for (const [name, content] of base) if (!removed.has(name)) files[`${KB_DIR}/${name}`] = content;
  for (const [name, content] of Object.entries(state.written)) files[`${KB_DIR}/${name}`] = content;
  const fs = new InMemoryFs(files);
  fs.mkdirSync(KB_DIR, { recursive: true });
  for (const dir of state.directories) fs.mkdirSync(`${KB_DIR}/${dir}`, { recursive: true });
  return fs;
};

export interface Interpreter {
  readonly fs: InMemoryFs;
  readonly bash: Bash;
}

export interface InterpreterSettings {
  readonly mode: ShellMode;
  /** The host's commands; every other command of the interpreter answers as missing. */
  readonly commands: readonly CommandName[];
  readonly env: Record<string, string>;
  readonly executionLimits: BashOptions['executionLimits'];
}

/** An interpreter in the knowledge-base directory over the exported files with a state's changes. */
export const openInterpreter = (base: ReadonlyMap<string, string>, state: ShellState, settings: InterpreterSettings): Interpreter => {
  const fs = buildFs(base, state);
  const bash = new Bash({
    fs: guarded(fs, settings.mode),
    cwd: KB_DIR,
    commands: [...settings.commands],
    customCommands: [gnuLs, gnuUniq, ...missingCommands(settings.commands)],
    env: settings.env,
    executionLimits: settings.executionLimits,
  });
  return { fs, bash };
};
