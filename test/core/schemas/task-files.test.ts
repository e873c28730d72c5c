// Every reference task file parses, and no value of it is lost (floats stay floats).
import { describe, expect, it } from 'vitest';
import { dumpsPy, isPyFloat, parsePyJson } from '../../../src/core/py/index.ts';
import type { PyValue } from '../../../src/core/py/index.ts';
import { parseTasks } from '../../../src/core/tasks.ts';
import type { Task } from '../../../src/core/schemas/task.ts';
import { fileDataSource } from '../../../src/cli/data.ts';

/** True when every non-null value of `raw` appears, identically (number kinds included), in `parsed`. */
const preserved = (raw: PyValue, parsed: PyValue): boolean => {
  if (raw === null) return true;
  if (Array.isArray(raw)) return Array.isArray(parsed) && raw.length === parsed.length && raw.every((v, i) => preserved(v, parsed[i]!));
  if (typeof raw === 'object' && !isPyFloat(raw)) {
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
    const p = parsed as Record<string, PyValue>;
    return Object.entries(raw).every(([k, v]) => v === null || (Object.hasOwn(p, k) && preserved(v, p[k]!)));
  }
  return dumpsPy(raw) === dumpsPy(parsed);
};

const expectedCounts: Record<string, number> = { mock: 10, airline: 50, retail: 114, telecom: 2285 };

/** Each task file read and parsed once for this file's tests (telecom's 2,285 tasks take seconds). */
const parsedFiles = new Map<string, Promise<{ text: string; tasks: Task[] }>>();
const parsedFile = (domain: string) => {
  let parsed = parsedFiles.get(domain);
  if (parsed === undefined) {
    const read = fileDataSource().readText(`domains/${domain}/tasks.json`);
    parsedFiles.set(domain, (parsed = read.then((text) => ({ text, tasks: parseTasks(text) }))));
  }
  return parsed;
};

describe('reference task files', () => {
  it.each(Object.entries(expectedCounts))('%s/tasks.json parses into %i tasks without losing a value', async (domain, count) => {
    const { text, tasks } = await parsedFile(domain);
    expect(tasks).toHaveLength(count);
    const raw = parsePyJson(text) as PyValue[];
    const lost = tasks.filter((t, i) => !preserved(raw[i]!, t as unknown as PyValue)).map((t) => t.id);
    expect(lost).toEqual([]);
  });

  it('telecom float arguments keep their kind (gb_amount 2.0 stays 2.0)', async () => {
    const { tasks } = await parsedFile('telecom');
    const refuel = tasks
      .flatMap((t) => t.evaluation_criteria?.actions ?? [])
      .find((a) => a.name === 'refuel_data')!;
    expect(dumpsPy(refuel.arguments)).toMatch(/"gb_amount": \d+\.\d/);
  });
});
