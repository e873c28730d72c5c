// `tau2-edge tasks --domain D [--task-split-name S] [--task-ids ID ...]`: prints the selected tasks as JSON.
import { defineCommand } from '../cli-command.ts';
import type { CliContext } from '../cli-command.ts';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyValue } from '../../core/py/index.ts';
import { selectTasks } from '../../core/tasks.ts';
import { loadDomain } from '../data.ts';

interface TasksFlags {
  readonly domain: string;
  readonly taskSplitName?: string;
  readonly taskIds?: string[];
}

export const tasksCommand = (ctx: CliContext) =>
  defineCommand(
    ctx,
    'tasks',
    "print a domain's tasks as JSON",
    ['tasks --domain airline --task-split-name test', 'tasks --domain mock --task-ids create_task_1'],
    (command) =>
      command
        .requiredOption('-d, --domain <domain>', 'the domain')
        .option('--task-split-name <split>', 'only the tasks of this split')
        .option('--task-ids <ids...>', 'only these tasks'),
    async (values: TasksFlags) => {
      const { data } = await loadDomain(values.domain);
      const tasks = selectTasks(values.domain, data.tasks, data.splits, {
        split: values.taskSplitName ?? null,
        taskIds: values.taskIds ?? null,
      });
      ctx.out(dumpsPy(tasks as unknown as PyValue, { indent: 2 }));
      return 0;
    },
  );
