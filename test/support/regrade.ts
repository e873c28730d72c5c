// Re-grading recorded results files with `tau2-edge evaluate-trajs`. A fixture holds trajectories with the
// verdicts the reference gave them; its policy and guidelines texts are `"{{file}}"` placeholders and, when
// its task list is empty, its tasks are those of the fetched data, so no reference data is committed.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { fileDataSource } from '../../src/cli/data.ts';
import { dumpsPy, parsePyJson, toNumber } from '../../src/core/py/index.ts';
import type { PyFloat, PyValue } from '../../src/core/py/index.ts';
import { capture } from './cli.ts';
import type { CliOutput } from './cli.ts';

export interface RegradeFixture {
  domain: string;
  /** The results file, with `"{{file}}"` placeholders for data texts. */
  fixture: URL;
  /** The policy's path in the data, e.g. `domains/airline/policy.md`. */
  policy: string;
  /** For a domain with one file per task (banking_knowledge), the path of a task's file. */
  taskPath?: (taskId: string) => string;
}

/** The fixture as a complete results file, in Python JSON throughout (so 1.0 stays a float). */
export const regradeFixtureText = async ({ domain, fixture, policy, taskPath }: RegradeFixture): Promise<string> => {
  let text = await readFile(fixture, 'utf8');
  for (const file of ['user_simulator/simulation_guidelines.md', policy]) {
    text = text.replaceAll(`"{{${file}}}"`, JSON.stringify(await fileDataSource().readText(file)));
  }
  const results = parsePyJson(text) as { tasks: PyValue[]; simulations: { task_id: string }[] };
  if (results.tasks.length > 0) return text;
  const ids = new Set(results.simulations.map((s) => s.task_id));
  if (taskPath) {
    results.tasks = await Promise.all([...ids].sort().map(async (id) => parsePyJson(await fileDataSource().readText(taskPath(id)))));
    return dumpsPy(results as unknown as PyValue);
  }
  const tasks = parsePyJson(await fileDataSource().readText(`domains/${domain}/tasks.json`)) as { id: string }[];
  results.tasks = tasks.filter((t) => ids.has(t.id)) as unknown as PyValue[];
  return dumpsPy(results as unknown as PyValue);
};

const tempDir = (domain: string) => mkdtemp(path.join(tmpdir(), `tau2-edge-${domain}-`));

/** `evaluate-trajs` on a results file, saving the re-graded results: the output and the saved file's text. */
export const evaluateTrajs = async (domain: string, text: string): Promise<CliOutput & { regraded: string }> => {
  const dir = await tempDir(domain);
  const good = path.join(dir, 'good.json');
  await writeFile(good, text);
  const output = await capture(['evaluate-trajs', good, '--out', path.join(dir, 'out.json')]);
  return { ...output, regraded: await readFile(path.join(dir, 'out.json'), 'utf8') };
};

/** `evaluate-trajs` on a results file whose recorded db_match of one simulation is flipped. */
export const evaluateTampered = async (domain: string, text: string, simulationId: string): Promise<CliOutput> => {
  const results = parsePyJson(text) as { simulations: { id: string; reward_info: { db_check: { db_match: boolean } } }[] };
  const dbCheck = results.simulations.find((s) => s.id === simulationId)!.reward_info.db_check;
  dbCheck.db_match = !dbCheck.db_match;
  const tampered = path.join(await tempDir(domain), 'tampered.json');
  await writeFile(tampered, dumpsPy(results as unknown as PyValue));
  return capture(['evaluate-trajs', tampered]);
};

/** The fixture's simulations (ids `<domain>-regrade-<name>`) record `verdicts`: name → reward. */
export const expectRecordedVerdicts = async (fixture: RegradeFixture, verdicts: Record<string, number>): Promise<void> => {
  const results = parsePyJson(await regradeFixtureText(fixture)) as unknown as {
    simulations: { id: string; reward_info: { reward: PyFloat } }[];
  };
  const recorded = Object.fromEntries(
    results.simulations.map((s) => [s.id.replace(`${fixture.domain}-regrade-`, ''), toNumber(s.reward_info.reward)]),
  );
  expect(recorded).toEqual(verdicts);
};

/**
 * evaluate-trajs agrees on all `verdicts` with byte-identical reward_info, and reports the flipped db_match of
 * simulation `<domain>-regrade-<tampered.name>` with a DIFF line starting `tampered.diff` and naming `tampered.change`.
 */
export const expectRegradeAgrees = async (
  fixture: RegradeFixture,
  verdicts: Record<string, number>,
  tampered: { name: string; diff: string; change: string },
): Promise<void> => {
  const text = await regradeFixtureText(fixture);
  const ok = await evaluateTrajs(fixture.domain, text);
  expect(ok.lines.filter((l) => l.startsWith('DIFF') || l.startsWith('WARN'))).toEqual([]);
  expect(ok.lines.at(-1)).toBe(`agree ${Object.keys(verdicts).length} / ${Object.keys(verdicts).length}`);
  expect(ok.code).toBe(0);
  // The whole reward_info, notes and per-check details included, is what the reference recorded.
  const rewardInfos = (value: unknown) =>
    (value as { simulations: { reward_info: PyValue }[] }).simulations.map((s) => dumpsPy(s.reward_info));
  expect(rewardInfos(parsePyJson(ok.regraded))).toEqual(rewardInfos(parsePyJson(text)));

  const bad = await evaluateTampered(fixture.domain, text, `${fixture.domain}-regrade-${tampered.name}`);
  expect(bad.lines.some((l) => l.startsWith(tampered.diff) && l.includes(tampered.change))).toBe(true);
  expect(bad.code).toBe(1);
};
