// `tau2-edge tasks --domain D [--split S]`: prints the selected tasks as JSON.
import { parseArgs } from 'node:util';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyValue } from '../../core/py/index.ts';
import { selectTasks } from '../../core/tasks.ts';
import { loadDomain } from '../data.ts';

export const tasksCommand = async (argv: string[], out: (text: string) => void): Promise<number> => {
  const { values } = parseArgs({
    args: argv,
    options: { domain: { type: 'string', short: 'd' }, split: { type: 'string' }, 'task-ids': { type: 'string', multiple: true } },
  });
  if (!values.domain) throw new Error('--domain is required');
  const { data } = await loadDomain(values.domain);
  const tasks = selectTasks(values.domain, data.tasks, data.splits, {
    split: values.split ?? null,
    taskIds: values['task-ids'] ?? null,
  });
  out(dumpsPy(tasks as unknown as PyValue, { indent: 2 }));
  return 0;
};
