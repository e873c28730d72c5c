// `tau2-edge generate-tasks --domain telecom [--file tasks.json|tasks_small.json|split_tasks.json] [--out PATH]`:
// runs a domain's task generator and writes one of the data files it reproduces.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { telecomTaskFiles } from '../../../domains/telecom/tasks/files.ts';

/** Per domain with a generator: the text of each file it makes. */
const generators: Readonly<Record<string, Readonly<Record<string, () => string>>>> = {
  telecom: telecomTaskFiles,
};

export const generateTasksCommand = async (argv: string[], out: (text: string) => void): Promise<number> => {
  const { values } = parseArgs({
    args: argv,
    options: {
      domain: { type: 'string', short: 'd' },
      file: { type: 'string', default: 'tasks.json' },
      out: { type: 'string' },
    },
  });
  if (!values.domain) throw new Error('--domain is required');
  const files = Object.hasOwn(generators, values.domain) ? generators[values.domain] : undefined;
  if (!files) throw new Error(`No task generator for domain ${values.domain}. Available: ${Object.keys(generators).join(', ')}`);
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
