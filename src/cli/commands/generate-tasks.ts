// `tau2-edge generate-tasks --domain telecom [--split full|small] [--out FILE]`: runs a domain's task generator
// and writes the task file it produces (telecom: the released tasks.json / tasks_small.json, byte for byte).
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { GeneratedTask } from '../../../domains/telecom/tasks/build-task.ts';
import { generateTelecomTasks, singleIssueTasks, taskFileText } from '../../../domains/telecom/tasks/generate.ts';

/** Per domain with a generator: the task set of each split it can produce. */
const generators: Readonly<Record<string, Readonly<Record<string, () => GeneratedTask[]>>>> = {
  telecom: {
    full: generateTelecomTasks,
    small: () => singleIssueTasks(generateTelecomTasks()),
  },
};

export const generateTasksCommand = async (argv: string[], out: (text: string) => void): Promise<number> => {
  const { values } = parseArgs({
    args: argv,
    options: { domain: { type: 'string', short: 'd' }, split: { type: 'string', default: 'full' }, out: { type: 'string' } },
  });
  if (!values.domain) throw new Error('--domain is required');
  const splits = Object.hasOwn(generators, values.domain) ? generators[values.domain] : undefined;
  if (!splits) throw new Error(`No task generator for domain ${values.domain}. Available: ${Object.keys(generators).join(', ')}`);
  const generate = Object.hasOwn(splits, values.split) ? splits[values.split] : undefined;
  if (!generate) throw new Error(`The ${values.domain} generator makes splits ${Object.keys(splits).join(', ')}, not ${values.split}`);
  const tasks = generate();
  if (!values.out) {
    out(taskFileText(tasks));
    return 0;
  }
  await writeFile(values.out, taskFileText(tasks));
  out(`wrote ${tasks.length} ${values.domain} tasks (split ${values.split}) to ${values.out}`);
  return 0;
};
