// The tau2-edge command line: run, play, view, domain, tasks, check-data, evaluate-trajs, convert-results, generate-tasks, compare, compare-modes,
// runs, rerun-infra-errors, admin, submit, review.
// commander gives every command its help (`-h`, `help CMD`), did-you-mean for commands and flags, and
// argument validation before any action starts.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import tau2Data from '../../scripts/tau2-data.json' with { type: 'json' };
import type { CliContext } from './cli-command.ts';
import { useCharacterNameFiles } from '../core/knowledge/py-regex.ts';
import { readUnicodeNameFiles } from './unicode-name-files.ts';
import { runCommand } from './commands/run.ts';
import { playCommand } from './commands/play.ts';
import { tasksCommand } from './commands/tasks.ts';
import { checkDataCommand } from './commands/check-data.ts';
import { evaluateTrajsCommand } from './commands/evaluate-trajs.ts';
import { convertResultsCommand } from './commands/convert-results.ts';
import { viewCommand } from './commands/view.ts';
import { generateTasksCommand } from './commands/generate-tasks.ts';
import { compareModesCommand } from './commands/compare-modes.ts';
import { compareCommand } from './commands/compare.ts';
import { adminCommand } from './commands/admin.ts';
import { domainCommand } from './commands/domain.ts';
import { rerunInfraErrorsCommand, runsCommand } from './commands/runs.ts';
import { submitCommand } from './commands/submit.ts';
import { reviewCommand } from './commands/review.ts';
import { forkCommand } from './commands/fork.ts';
import { introCommand } from './commands/intro.ts';

/** Each subcommand, built for one invocation's context. */
const subcommands: readonly ((ctx: CliContext) => Command)[] = [
  runCommand,
  playCommand,
  viewCommand,
  domainCommand,
  tasksCommand,
  checkDataCommand,
  evaluateTrajsCommand,
  convertResultsCommand,
  generateTasksCommand,
  compareCommand,
  compareModesCommand,
  runsCommand,
  rerunInfraErrorsCommand,
  adminCommand,
  submitCommand,
  reviewCommand,
  forkCommand,
  introCommand,
];

export const version = `tau2-edge ${packageJson.version} (tau2-bench data ${tau2Data.upstream.commit})`;

/** Errors go to stderr, and nothing calls process.exit: main returns the exit code. */
const configure = (command: Command): Command =>
  command.exitOverride().showSuggestionAfterError(true).configureOutput({
    writeOut: (text) => process.stdout.write(text),
    writeErr: (text) => process.stderr.write(text),
  });

/** A command and its nested subcommands (e.g. `admin keys create`), which addCommand does not configure. */
const configureTree = (command: Command): Command => {
  configure(command);
  for (const child of command.commands) configureTree(child);
  return command;
};

export const buildProgram = (ctx: CliContext): Command => {
  const program = configure(new Command('tau2-edge'))
    .description('The τ²-bench benchmark for conversational agents, on Cloudflare Workers or locally')
    .version(version, '-V, --version', 'print the version and the reference data commit')
    .showHelpAfterError('(add --help for usage)');
  for (const make of subcommands) program.addCommand(configureTree(make(ctx)));
  program.addHelpText('after', '\nRun `tau2-edge help <command>` or `tau2-edge <command> --help` for its flags and examples.');
  return program;
};

export const main = async (argv: string[]): Promise<number> => {
  useCharacterNameFiles(readUnicodeNameFiles);
  const ctx: CliContext = { out: (text) => process.stdout.write(`${text}\n`), code: 0 };
  const program = buildProgram(ctx);
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end with 0; a usage error with 2, as argparse (the reference's parser) does.
      return error.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`tau2-edge ${argv[0]}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
};

/** Runs the command line as a process does: its exit code set, a closed pipe (e.g. `| head`) ending it quietly. */
export const runAsProcess = async (argv: string[]): Promise<void> => {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  process.exitCode = await main(argv);
};

const invokedDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) await runAsProcess(process.argv.slice(2));
