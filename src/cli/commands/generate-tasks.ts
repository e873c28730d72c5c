// `tau2-edge generate-tasks --domain telecom [--file tasks.json|tasks_small.json|split_tasks.json] [--out PATH]`:
// runs a domain's task generator and writes one of the data files it reproduces. `--verify` instead plays
// every generated task on the domain's environment (init breaks it, the gold actions fix it).
import { writeFile } from 'node:fs/promises';
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { Environment } from '../../core/environment/environment.ts';
import { isoTimestamp } from '../../core/orchestrator/clock.ts';
import { composedTelecomTasks } from '../../../domains/telecom/tasks/generate.ts';
import { telecomTaskFiles } from '../../../domains/telecom/tasks/files.ts';
import { verifyTasks } from '../../../domains/telecom/tasks/verify.ts';
import { loadDomain } from '../data.ts';

interface TaskGenerator {
  /** The text of each file the generator makes. */
  readonly files: Readonly<Record<string, () => string>>;
  /** Plays every generated task; returns how many and what failed. */
  readonly verify: () => Promise<{ readonly tasks: number; readonly problems: readonly string[] }>;
}

const generators: Readonly<Record<string, TaskGenerator>> = {
  telecom: {
    files: telecomTaskFiles,
    verify: async () => {
      const { domain, data } = await loadDomain('telecom');
      const tasks = composedTelecomTasks();
      const newEnvironment = () => new Environment(domain, data, { now: () => isoTimestamp(Date.now()) });
      return { tasks: tasks.length, problems: verifyTasks(tasks, newEnvironment) };
    },
  },
};

interface GenerateTasksFlags {
  readonly domain: string;
  readonly file: string;
  readonly out?: string;
  readonly verify?: boolean;
}

export const generateTasksCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'generate-tasks',
    "write a generated data file, byte-identical to the reference's; --verify plays every generated task",
    ['generate-tasks --domain telecom --file tasks_small.json --out /tmp/tasks_small.json', 'generate-tasks --domain telecom --verify'],
    (command) =>
      command
        .requiredOption('-d, --domain <domain>', 'the domain (telecom)')
        .option('--file <name>', 'tasks.json, tasks_small.json or split_tasks.json', 'tasks.json')
        .option('--out <path>', 'write the file here (default: stdout)')
        .option('--verify', 'play every generated task: init breaks it, the gold actions fix it'),
    (values: GenerateTasksFlags) => generateTasks(values, ctx.out),
  );

const generateTasks = async (values: GenerateTasksFlags, out: (text: string) => void): Promise<number> => {
  const generator = Object.hasOwn(generators, values.domain) ? generators[values.domain] : undefined;
  if (!generator) throw new Error(`No task generator for domain ${values.domain}. Available: ${Object.keys(generators).join(', ')}`);
  if (values.verify) {
    const { tasks, problems } = await generator.verify();
    for (const problem of problems) out(problem);
    out(`verified ${values.domain}: ${tasks} generated tasks, ${problems.length} problem(s)`);
    return problems.length === 0 ? 0 : 1;
  }
  const { files } = generator;
  const generate = Object.hasOwn(files, values.file) ? files[values.file] : undefined;
  if (!generate) throw new Error(`The ${values.domain} generator makes ${Object.keys(files).join(', ')}, not ${values.file}`);
  const text = generate();
  if (!values.out) {
    out(text);
    return 0;
  }
  await writeFile(values.out, text);
  out(`wrote ${values.domain} ${values.file} to ${values.out}`);
  return 0;
};
