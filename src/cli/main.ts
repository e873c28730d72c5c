// The tau2-edge command line: run, tasks, check-data, evaluate-trajs, view, generate-tasks, compare-modes.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCommand } from './commands/run.ts';
import { tasksCommand } from './commands/tasks.ts';
import { checkDataCommand } from './commands/check-data.ts';
import { evaluateTrajsCommand } from './commands/evaluate-trajs.ts';
import { viewCommand } from './commands/view.ts';
import { generateTasksCommand } from './commands/generate-tasks.ts';
import { compareModesCommand } from './commands/compare-modes.ts';
import { adminCommand } from './commands/admin.ts';

type Command = (argv: string[], out: (text: string) => void) => Promise<number>;

export const commands: Readonly<Record<string, Command>> = {
  run: runCommand,
  tasks: tasksCommand,
  'check-data': checkDataCommand,
  'evaluate-trajs': evaluateTrajsCommand,
  view: viewCommand,
  'generate-tasks': generateTasksCommand,
  'compare-modes': compareModesCommand,
  admin: adminCommand,
};

const usage = `usage: tau2-edge <command> [options]
  run             run an evaluation (flags as \`tau2 run\`: --domain --agent-llm --user-llm --num-trials ...;
                  --api URL runs on a serving worker, else a local worker is started; --in-process skips workerd)
  tasks           print a domain's tasks as JSON (--domain D [--split S])
  check-data      play every task with the oracle; every task must score 1.0 (--domain D)
  evaluate-trajs  re-grade a results file (FILE [--out FILE] [--judge-llm MODEL])
  view            show a results file or an API's run (FILE|RUN [--sim ID] [--api URL])
  generate-tasks  write a generated data file (--domain telecom [--file tasks.json|tasks_small.json|split_tasks.json] [--out PATH] | --verify)
  compare-modes   pass^1 with and without the user, per issue type (--default FILE --solo FILE)
  admin           tenants' API keys on a serving worker (keys create --tenant T --name N | keys list | keys revoke ID; --api URL)`;

export const main = async (argv: string[]): Promise<number> => {
  const [name, ...rest] = argv;
  const command = name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`${usage}\n`);
    return name === undefined || name === '--help' ? 0 : 2;
  }
  try {
    return await command(rest, (text) => process.stdout.write(`${text}\n`));
  } catch (error) {
    process.stderr.write(`tau2-edge ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
};

const invokedDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  // A closed pipe (e.g. `| head`) ends the command quietly, as command-line tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  process.exitCode = await main(process.argv.slice(2));
}
