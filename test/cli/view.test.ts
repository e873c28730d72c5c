// `tau2-edge view` without a target lists the saved runs (either format); `--sim` takes a unique id prefix.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture } from '../support/cli.ts';
import { regradeFixtureText } from '../support/regrade.ts';
import { loadResults, saveResults } from '../../src/cli/results-file.ts';

let dir: string;
const saved = process.env.TAU2_EDGE_SIMULATIONS_DIR;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-view-'));
  process.env.TAU2_EDGE_SIMULATIONS_DIR = dir;
});
afterAll(async () => {
  if (saved === undefined) delete process.env.TAU2_EDGE_SIMULATIONS_DIR;
  else process.env.TAU2_EDGE_SIMULATIONS_DIR = saved;
  await rm(dir, { recursive: true, force: true });
});

describe('tau2-edge view', () => {
  it('lists the saved runs, json files and dir-format folders alike; --sim takes a unique prefix', async () => {
    expect((await capture(['view'])).lines).toEqual([`no saved runs in ${dir}`]);

    const mock = path.join(dir, '20260101_000000_mock.json');
    await writeFile(mock, await regradeFixtureText({ domain: 'mock', fixture: new URL('../fixtures/mock-results-b3.json', import.meta.url), policy: 'domains/mock/policy.md' }));
    const airlineText = await regradeFixtureText({ domain: 'airline', fixture: new URL('../fixtures/airline-results-regrade.json', import.meta.url), policy: 'domains/airline/policy.md' });
    const scratch = path.join(dir, '..', `${path.basename(dir)}-airline.json`);
    await writeFile(scratch, airlineText);
    await mkdir(path.join(dir, '20260102_000000_airline'));
    await saveResults(path.join(dir, '20260102_000000_airline'), await loadResults(scratch), 'dir');
    await rm(scratch);

    // Newest first: the airline run was saved last.
    const list = await capture(['view']);
    expect(list.code).toBe(0);
    expect(list.lines[0]).toBe(`saved runs in ${dir}, newest first:`);
    expect(list.lines[1]).toMatch(/^ {2}20260102_000000_airline\/results\.json {2}airline · \S+ \(\S+\) · 21 simulations · avg reward \d\.\d{4}$/);
    expect(list.lines[2]).toMatch(/^ {2}20260101_000000_mock\.json {2}mock · llm_agent \(\S+\) · 1 simulations · avg reward \d\.\d{4}$/);
    // The folder named as the target, or with --dir, lists the same.
    expect((await capture(['view', dir])).lines).toEqual(list.lines);
    expect((await capture(['view', '--dir', dir])).lines).toEqual(list.lines);

    const folder = path.join(dir, '20260102_000000_airline');
    const one = await capture(['view', folder, '--sim', 'airline-regrade-t11-corr']);
    expect(one.code).toBe(0);
    expect(one.text).toContain('airline-regrade-t11-correct');
    const ambiguous = await capture(['view', folder, '--sim', 'airline-regrade-t1']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.errors).toMatch(/airline-regrade-t1 names \d+ simulations in /);
  });

  it("opens a run's folder in either format, names a file it cannot read, and cuts tool results as asked", async () => {
    const airline = await loadResults(path.join(dir, '20260102_000000_airline'));
    // The json format in a run's folder, as `run` saves it (data/simulations/<run>/results.json).
    const jsonRun = path.join(dir, 'json-run');
    await saveResults(path.join(jsonRun, 'results.json'), airline, 'json');
    for (const folder of [jsonRun, path.join(dir, '20260102_000000_airline')]) {
      const shown = await capture(['view', folder]);
      expect(shown.code, shown.errors).toBe(0);
      expect(shown.text).toMatch(/ · 21 simulation\(s\) · /);
      expect(shown.text.match(/^airline-regrade-\S+ /gm)).toHaveLength(21);
      expect((await capture(['view', '--file', folder])).text).toBe(shown.text);
    }

    // Infrastructure errors are listed under the summary, grouped by reason.
    const failing = path.join(dir, '..', `${path.basename(dir)}-infra.json`);
    const broken = { ...airline.simulations[0]!, termination_reason: 'infrastructure_error' as const, reward_info: null, info: { error: 'LLM call to x failed after 1 attempt: HTTP 401: bad key' } };
    await saveResults(failing, { ...airline, simulations: [broken, { ...broken, id: 'second', task_id: 'other' }, ...airline.simulations.slice(1)] }, 'json');
    expect((await capture(['view', failing])).text).toMatch(/^=== Infrastructure Errors ===\n2 × LLM call to x failed after 1 attempt: HTTP 401: bad key\n {4}tasks: \S+, other$/m);
    await rm(failing);

    const empty = path.join(dir, '..', `${path.basename(dir)}-empty.json`);
    await writeFile(empty, '');
    const refused = await capture(['view', empty]);
    expect(refused.code).toBe(1);
    expect(refused.errors).toContain(`${empty} is not a readable results file: `);
    await rm(empty);
    const missing = await capture(['view', path.join(dir, 'no-such-run.json')]);
    expect(missing.code).toBe(1);
    expect(missing.errors).toContain('no-such-run.json is not a file');

    // A long tool result: cut after 500 characters by default, after N with --max-tool-result-chars, whole with
    // --full-tool-results or 0.
    const sim = airline.simulations.find((s) => (s.messages ?? []).some((m) => m.role === 'tool' && (m.content ?? '').length > 500))!;
    const longest = Math.max(...(sim.messages ?? []).filter((m) => m.role === 'tool').map((m) => (m.content ?? '').length));
    const cutAt = (text: string): number[] => [...text.matchAll(/… \((\d+) chars\)$/gm)].map((m) => Number(m[1]));
    const shown = (...flags: string[]) => capture(['view', jsonRun, '--sim', sim.id, ...flags]).then((r) => r.text);
    expect(cutAt(await shown())).toContain(longest);
    expect((await shown('--max-tool-result-chars', '20')).length).toBeLessThan((await shown()).length);
    expect(cutAt(await shown('--full-tool-results'))).toEqual([]);
    expect(await shown('--max-tool-result-chars', '0')).toBe(await shown('--full-tool-results'));
  });
});
