// The compositional generator reproduces the released telecom task files and splits, byte for byte.
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../../src/core/py/index.ts';
import { parseSplits } from '../../../src/core/tasks.ts';
import { fileDataSource } from '../../../src/cli/data.ts';
import { composeIssues } from '../../../domains/telecom/tasks/compose.ts';
import {
  FAMILIES,
  composedTelecomTasks,
  familyTasks,
  isWithheld,
  releasedTasks,
  singleIssueTasks,
  taskFileText,
} from '../../../domains/telecom/tasks/generate.ts';
import { splitsFileText, telecomSplits } from '../../../domains/telecom/tasks/splits.ts';
import { parseTaskId } from '../../../domains/telecom/tasks/task-id.ts';

const read = (file: string): Promise<string> => fileDataSource().readText(`domains/telecom/${file}`);
const composed = composedTelecomTasks();
const tasks = releasedTasks(composed);
const text = taskFileText(tasks);

describe('telecom task generator', () => {
  it('writes tasks.json byte for byte', async () => {
    expect(text === (await read('tasks.json'))).toBe(true);
  });

  it('reproduces tasks_small.json: the single-issue tasks, deep-equal and byte for byte', async () => {
    const file = await read('tasks_small.json');
    const small = singleIssueTasks(tasks);
    expect(small).toEqual(parsePyJson(file));
    expect(taskFileText(small)).toBe(file);
  });

  it('writes split_tasks.json byte for byte: small, train, test, full and base', async () => {
    const file = await read('split_tasks.json');
    const splits = telecomSplits(composed);
    expect(splits).toEqual(parseSplits(file));
    expect(splitsFileText(splits)).toBe(file);
    expect(splits.full).toEqual(tasks.map((t) => t.id));
  });

  it('composes 382 mobile data, 47 service and 2976 MMS tasks before withholding the no-refuel variant', () => {
    const counts = FAMILIES.map((f) => [f.name, composeIssues(f.selectionSets, f.isValid).length]);
    expect(Object.fromEntries(counts)).toEqual({ mobile_data_issue: 382, service_issue: 47, mms_issue: 2976 });
    const released = FAMILIES.map((f) => tasks.filter((t) => parseTaskId(t.id)!.family === f.name).length);
    expect(released).toEqual([254, 47, 1984]);
  });

  it('assigns personas round-robin over all composed tasks, then withholds the no-refuel variant', () => {
    const mobile = familyTasks(FAMILIES[0]!);
    expect(mobile.map((t) => parseTaskId(t.id)!.persona)).toEqual(mobile.map((_, i) => ['None', 'Easy', 'Hard'][i % 3]));
    const kept = mobile.filter((t) => !isWithheld(t.id));
    expect(tasks.filter((t) => t.id.startsWith('[mobile_data_issue]')).map((t) => t.id)).toEqual(kept.map((t) => t.id));
  });

  it('is deterministic', () => {
    const again = composedTelecomTasks();
    expect(taskFileText(releasedTasks(again)) === text).toBe(true);
    expect(telecomSplits(again)).toEqual(telecomSplits(composed));
  });
});
