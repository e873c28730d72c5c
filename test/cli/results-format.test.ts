// Results files in the reference's two storage formats: saving the `dir` format writes byte for byte what the
// reference's Results.save(format="dir") writes, reading it back gives the reference's order, and
// `convert-results` converts both ways with the reference's backups and messages.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadResults, resultsFormat, saveResults } from '../../src/cli/results-file.ts';
import { regradeFixtureText } from '../support/regrade.ts';
import { capture } from '../support/cli.ts';

interface Expected {
  readonly dir: Record<string, string>;
  readonly json_from_dir: string;
  readonly simulation_order: string[];
}

const FIXTURES = {
  'mock-results-b3': { domain: 'mock', policy: 'domains/mock/policy.md' },
  'airline-results-regrade': { domain: 'airline', policy: 'domains/airline/policy.md' },
} as const;

const sha256 = async (file: string): Promise<string> => createHash('sha256').update(await readFile(file)).digest('hex');

let dir: string;
let expected: Record<keyof typeof FIXTURES, Expected>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-formats-'));
  expected = JSON.parse(await readFile(new URL('../fixtures/results-dir-format.json', import.meta.url), 'utf8')) as typeof expected;
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** The fixture as a results file, alone in a folder of its own (a simulations/ folder beside a file marks `dir`). */
const fixtureFile = async (name: keyof typeof FIXTURES): Promise<string> => {
  const file = path.join(await mkdtemp(path.join(dir, `${name}-`)), `${name}.json`);
  await writeFile(file, await regradeFixtureText({ ...FIXTURES[name], fixture: new URL(`../fixtures/${name}.json`, import.meta.url) }));
  return file;
};

describe('the dir results format', () => {
  for (const name of Object.keys(FIXTURES) as (keyof typeof FIXTURES)[]) {
    it(`${name}: written byte for byte as the reference writes it, and read back in the reference's order`, async () => {
      const results = await loadResults(await fixtureFile(name));
      const target = path.join(dir, `${name}-dir`, 'results.json');
      await saveResults(target, results, 'dir');
      const written: Record<string, string> = { 'results.json': await sha256(target) };
      for (const file of (await readdir(path.join(dir, `${name}-dir`, 'simulations'))).sort()) {
        written[`simulations/${file}`] = await sha256(path.join(dir, `${name}-dir`, 'simulations', file));
      }
      expect(written).toEqual(expected[name].dir);

      expect(await resultsFormat(target)).toBe('dir');
      expect(await resultsFormat(path.dirname(target))).toBe('dir');
      const back = await loadResults(path.dirname(target));
      expect(back.simulations.map((s) => s.id)).toEqual(expected[name].simulation_order);
      const json = path.join(dir, `${name}.back.json`);
      await saveResults(json, back);
      expect(await sha256(json)).toBe(expected[name].json_from_dir);
    });
  }

  it('refuses a folder whose simulation files disagree with its index', async () => {
    const results = await loadResults(await fixtureFile('airline-results-regrade'));
    const target = await mkdtemp(path.join(dir, 'broken-'));
    await saveResults(target, results, 'dir');
    await rm(path.join(target, 'simulations', 'airline-regrade-t0-transfer.json'));
    await writeFile(path.join(target, 'simulations', 'stray.json'), '{}');
    await expect(loadResults(target)).rejects.toThrow(
      `Dir format integrity check failed for ${path.join(target, 'results.json')}: Missing simulation files: airline-regrade-t0-transfer; Extra simulation files not in index: stray`,
    );
  });
});

describe('loading a results file', () => {
  // The reference's models default `timestamp` to "now" (Results, SimulationRun, every message, a task's
  // message history): Results.load fills an absent key with the load time and keeps an explicit null.
  it('absent timestamps become the load time, written back out; null and present ones stay', async () => {
    const file = await fixtureFile('mock-results-b3');
    const raw = JSON.parse(await readFile(file, 'utf8')) as {
      timestamp?: string;
      tasks: { initial_state: unknown }[];
      simulations: { timestamp?: string; messages: { timestamp?: string | null }[] }[];
    };
    const kept = raw.simulations[0]!.messages[2]!.timestamp;
    delete raw.timestamp;
    delete raw.simulations[0]!.timestamp;
    delete raw.simulations[0]!.messages[0]!.timestamp;
    raw.simulations[0]!.messages[1]!.timestamp = null;
    raw.tasks[0]!.initial_state = { initialization_data: null, initialization_actions: null, message_history: [{ role: 'assistant', content: 'Hello.' }] };
    await writeFile(file, JSON.stringify(raw));
    const expectFilled = (results: Awaited<ReturnType<typeof loadResults>>, now: string): void => {
      expect(results.timestamp).toBe(now);
      expect(results.simulations[0]!.timestamp).toBe(now);
      expect((results.simulations[0]!.messages ?? []).map((m) => m.timestamp).slice(0, 3)).toEqual([now, null, kept]);
      expect(results.tasks[0]!.initial_state?.message_history?.[0]?.timestamp).toBe(now);
    };
    const loaded = await loadResults(file, '2026-11-25T06:32:38.040432');
    expectFilled(loaded, '2026-11-25T06:32:38.040432');
    // Once filled, they are written out and kept by the next load.
    const copy = path.join(await mkdtemp(path.join(dir, 'stamps-')), 'results.json');
    await saveResults(copy, loaded, 'dir');
    expectFilled(await loadResults(path.dirname(copy), '2030-01-01T00:00:00'), '2026-11-25T06:32:38.040432');
  });
});

describe('tau2-edge convert-results', () => {
  it('converts json to dir and back, with backups, and says when there is nothing to do', async () => {
    const file = await fixtureFile('mock-results-b3');
    const original = await readFile(file, 'utf8');
    const toDir = await capture(['convert-results', file]);
    expect(toDir.code).toBe(0);
    expect(toDir.lines).toEqual([`Converting ${file}: 'json' -> 'dir'`, `  Backup: ${file}.bak`, "  Done. 1 simulation(s) converted to 'dir' format."]);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(original);
    expect(await sha256(file)).toBe(expected['mock-results-b3'].dir['results.json']);

    expect((await capture(['convert-results', file, '--to', 'dir'])).lines).toEqual([`Results at ${file} are already in 'dir' format.`]);
    const view = await capture(['view', file]);
    expect(view.code).toBe(0);
    expect(view.text).toContain('create_task_1');

    const toJson = await capture(['convert-results', file, '--no-backup']);
    expect(toJson.lines).toEqual([`Converting ${file}: 'dir' -> 'json'`, "  Done. 1 simulation(s) converted to 'json' format."]);
    expect(await sha256(file)).toBe(expected['mock-results-b3'].json_from_dir);
    expect(await resultsFormat(file)).toBe('json');
  });

  it('evaluate-trajs reads the dir format', async () => {
    const file = await fixtureFile('mock-results-b3');
    await capture(['convert-results', file, '--no-backup']);
    const { code, text } = await capture(['evaluate-trajs', path.dirname(file)]);
    expect(code, text).toBe(0);
    expect(text).toMatch(/agree 1 \/ 1/);
  });
});
