// `evaluate-trajs PATHS… [-o DIR] [--fresh-tasks]`: several files or folders, each re-graded file saved under
// its own name, and re-grading against the data folder's current tasks instead of the embedded ones.
// Trajectories saved with no reward are graded and reported as such.
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture } from '../support/cli.ts';
import { regradeFixtureText } from '../support/regrade.ts';
import { dumpsPy, parsePyJson } from '../../src/core/py/index.ts';
import type { PyValue } from '../../src/core/py/index.ts';

let dir: string;
let text: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-evaltrajs-'));
  text = await regradeFixtureText({ domain: 'mock', fixture: new URL('../fixtures/mock-results-b3.json', import.meta.url), policy: 'domains/mock/policy.md' });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('evaluate-trajs over several paths', () => {
  it('re-grades files and folders (results.json) and writes each into -o DIR', async () => {
    await writeFile(path.join(dir, 'a.json'), text);
    await mkdir(path.join(dir, 'run-b'), { recursive: true });
    await writeFile(path.join(dir, 'run-b', 'results.json'), text);
    const out = path.join(dir, 'out');
    const { code, lines } = await capture(['evaluate-trajs', path.join(dir, 'a.json'), path.join(dir, 'run-b'), '-o', out]);
    expect(code).toBe(0);
    expect(lines.filter((l) => l === 'agree 1 / 1')).toHaveLength(2);
    expect(lines).toContain(`== ${path.join(dir, 'run-b', 'results.json')}`);
    expect((await readdir(out)).sort()).toEqual(['a.json', 'results.json']);
  });

  it('--fresh-tasks grades against the current task definitions, not the embedded ones', async () => {
    const results = parsePyJson(text) as { tasks: { evaluation_criteria: { actions: { arguments: Record<string, PyValue> }[] } }[] };
    results.tasks[0]!.evaluation_criteria.actions[0]!.arguments.title = 'A different meeting';
    const edited = path.join(dir, 'edited-task.json');
    await writeFile(edited, dumpsPy(results as unknown as PyValue));
    const embedded = await capture(['evaluate-trajs', edited]);
    expect(embedded.lines.at(-1)).toBe('agree 0 / 1');
    const fresh = await capture(['evaluate-trajs', edited, '--fresh-tasks', '--out', path.join(dir, 'fresh.json')]);
    expect(fresh.lines.at(-1)).toBe('agree 1 / 1');
    // The saved file keeps the tasks it recorded.
    expect(await readFile(path.join(dir, 'fresh.json'), 'utf8')).toContain('A different meeting');
  });

  it('trajectories with no recorded reward are graded and said so, never shown as a disagreement; exit 0', async () => {
    const results = parsePyJson(text) as { simulations: { reward_info: PyValue }[] };
    for (const simulation of results.simulations) simulation.reward_info = null;
    const unrecorded = path.join(dir, 'unrecorded.json');
    await writeFile(unrecorded, dumpsPy(results as unknown as PyValue));
    const { code, text: printed, lines } = await capture(['evaluate-trajs', unrecorded, '--out', path.join(dir, 'unrecorded-graded.json')]);
    expect(printed).not.toContain('undefined');
    expect(printed).not.toContain('DIFF');
    expect(lines).toContainEqual(expect.stringMatching(/^GRADED task \S+ trial 0 sim \S+: no recorded reward; reward 1\.0$/));
    expect(lines.slice(-2)).toEqual(['graded 1 simulation with no recorded reward', 'agree 0 / 0']);
    expect(code).toBe(0);
    const graded = parsePyJson(await readFile(path.join(dir, 'unrecorded-graded.json'), 'utf8')) as { simulations: { reward_info: { reward: { value: number } } }[] };
    expect(graded.simulations[0]!.reward_info.reward.value).toBe(1);
  });
});
