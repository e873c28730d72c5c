// The released telecom data files the generator reproduces byte for byte, by file name.
import { composedTelecomTasks, releasedTasks, singleIssueTasks, taskFileText } from './generate.ts';
import { splitsFileText, telecomSplits } from './splits.ts';

export const telecomTaskFiles: Readonly<Record<string, () => string>> = {
  'tasks.json': () => taskFileText(releasedTasks(composedTelecomTasks())),
  'tasks_small.json': () => taskFileText(singleIssueTasks(releasedTasks(composedTelecomTasks()))),
  'split_tasks.json': () => splitsFileText(telecomSplits(composedTelecomTasks())),
};
