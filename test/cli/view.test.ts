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

    const list = await capture(['view']);
    expect(list.code).toBe(0);
    expect(list.lines[0]).toBe(`saved runs in ${dir}:`);
    expect(list.lines[1]).toMatch(/^ {2}20260101_000000_mock\.json {2}mock · llm_agent \(\S+\) · 1 simulations · avg reward \d\.\d{4}$/);
    expect(list.lines[2]).toMatch(/^ {2}20260102_000000_airline\/results\.json {2}airline · \S+ \(\S+\) · 21 simulations · avg reward \d\.\d{4}$/);

    const folder = path.join(dir, '20260102_000000_airline');
    const one = await capture(['view', folder, '--sim', 'airline-regrade-t11-corr']);
    expect(one.code).toBe(0);
    expect(one.text).toContain('airline-regrade-t11-correct');
    const ambiguous = await capture(['view', folder, '--sim', 'airline-regrade-t1']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.errors).toMatch(/airline-regrade-t1 names \d+ simulations in /);
  });
});
