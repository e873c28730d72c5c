// The compositional generator reproduces the released telecom task files and splits.
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../../src/core/py/index.ts';
import { parseSplits } from '../../../src/core/tasks.ts';
import { fileDataSource } from '../../../src/cli/data.ts';
import { composeIssues } from '../../../domains/telecom/tasks/compose.ts';
import {
  FAMILIES,
  familyTasks,
  generateTelecomTasks,
  singleIssueTasks,
  taskFileText,
} from '../../../domains/telecom/tasks/generate.ts';
import { parseTaskId } from '../../../domains/telecom/tasks/task-id.ts';

const read = (file: string): Promise<string> => fileDataSource().readText(`domains/telecom/${file}`);
const tasks = generateTelecomTasks();
const ids = tasks.map((t) => t.id);

describe('telecom task generator', () => {
  it('writes tasks.json byte for byte', async () => {
    expect(taskFileText(tasks) === (await read('tasks.json'))).toBe(true);
  });

  it('reproduces tasks_small.json: the single-issue tasks, deep-equal and byte for byte', async () => {
    const text = await read('tasks_small.json');
    const small = singleIssueTasks(tasks);
    expect(small).toEqual(parsePyJson(text));
    expect(taskFileText(small)).toBe(text);
  });

  it('gives split full in order, split small, and every other split as a subset in file order', async () => {
    const splits = parseSplits(await read('split_tasks.json'));
    expect(ids).toEqual(splits.full);
    expect(singleIssueTasks(tasks).map((t) => t.id)).toEqual(splits.small);
    for (const name of ['base', 'train', 'test']) {
      const wanted = new Set(splits[name]);
      expect(ids.filter((id) => wanted.has(id))).toHaveLength(wanted.size);
    }
  });

  it('composes 382 mobile data, 47 service and 2976 MMS tasks before withholding the no-refuel variant', () => {
    const counts = FAMILIES.map((f) => [f.name, composeIssues(f.selectionSets, f.isValid).length]);
    expect(Object.fromEntries(counts)).toEqual({ mobile_data_issue: 382, service_issue: 47, mms_issue: 2976 });
    const released = Object.groupBy(tasks, (t) => parseTaskId(t.id)!.family);
    expect(released.mobile_data_issue).toHaveLength(254);
    expect(released.service_issue).toHaveLength(47);
    expect(released.mms_issue).toHaveLength(1984);
  });

  it('assigns personas round-robin over all composed tasks, then withholds the no-refuel variant', () => {
    const mobile = familyTasks(FAMILIES[0]!);
    expect(mobile.map((t) => parseTaskId(t.id)!.persona)).toEqual(mobile.map((_, i) => ['None', 'Easy', 'Hard'][i % 3]));
    const kept = mobile.filter((t) => !parseTaskId(t.id)!.issues.includes('data_usage_exceeded_no_refuel'));
    expect(ids.filter((id) => id.startsWith('[mobile_data_issue]'))).toEqual(kept.map((t) => t.id));
  });

  it('is deterministic', () => {
    expect(taskFileText(generateTelecomTasks())).toBe(taskFileText(tasks));
  });
});
