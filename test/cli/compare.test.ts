// `tau2-edge compare A B`: the paired comparison of two results files, as text and as JSON (figures from
// scripts/stats/expected-stats.py, the same runs as test/core/metrics/paired-comparison.test.ts).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resultsText } from '../../src/cli/results-file.ts';
import { parsePyJson } from '../../src/core/py/index.ts';
import { ResultsSchema } from '../../src/core/schemas/simulation.ts';
import { capture } from '../support/cli.ts';
import { scoredTrials } from '../support/simulations.ts';

const A = { t1: [1, 0, 1, 1], t2: [0, 0, 0, 0], t3: [1, 1, 1, 1], t4: [0, 1, 0, 0], t5: [1, 1, 0, 1], t6: [0, 0, 1, 0], t7: [1, 1, 1, 1], t8: [0, 0, 0, 0] };
const B = { t1: [1, 1, 1, 1], t2: [1, 1, 1, 1], t3: [1, 1, 1, 1], t4: [1, 1, 0, 1], t5: [1, 1, 1, 1], t6: [0, 1, 1, 0], t7: [0, 0, 0, 0], t8: [0, 1, 0, 0], t9: [1] };

let dir: string;
const files: Record<'a' | 'b', string> = { a: '', b: '' };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-compare-'));
  const base = ResultsSchema.parse(parsePyJson(await readFile(new URL('../fixtures/mock-results-b3.json', import.meta.url), 'utf8')));
  for (const [side, rewards] of [['a', A], ['b', B]] as const) {
    files[side] = path.join(dir, `${side}.json`);
    await writeFile(files[side], resultsText({ ...base, simulations: scoredTrials(rewards) }));
  }
});

describe('tau2-edge compare', () => {
  it('--json gives the difference, its CI, the p-value, resolved, shared tasks and the MDD', async () => {
    const { code, text } = await capture(['compare', files.a, files.b, '--json']);
    expect(code).toBe(0);
    const out = JSON.parse(text);
    expect(out.difference).toBeCloseTo(0.1875, 12);
    expect(out.ci_low).toBeCloseTo(-0.2831762786500475, 12);
    expect(out.ci_high).toBeCloseTo(0.6581762786500476, 12);
    expect(out.p_value).toBeCloseTo(0.3775675404559561, 12);
    expect(out.mdd).toBeCloseTo(0.5576529564450559, 12);
    expect(out).toMatchObject({ resolved: false, shared_tasks: 8, only_b: ['t9'], improved: [{ task_id: 't2', difference: 1 }] });
  });

  it('prints the comparison with the changed tasks and the tasks left out', async () => {
    const { code, text } = await capture(['compare', files.a, files.b]);
    expect(code).toBe(0);
    expect(text).toContain('On the 8 tasks both runs evaluated (paired by task):');
    expect(text).toMatch(/^Difference \(B − A\) +\+0\.1875 {2}95% CI \[-0\.2832, \+0\.6582\]$/m);
    expect(text).toMatch(/^p-value +0\.3776 \(two-sided paired t-test\)$/m);
    expect(text).toMatch(/^Resolved +no: the CI includes 0$/m);
    expect(text).toMatch(/^Improved \(B all, A none\) +t2 \(\+1\.0000\)$/m);
    expect(text).toMatch(/^Regressed \(A all, B none\) +t7 \(-1\.0000\)$/m);
    expect(text).toContain('left out: 0 task(s) only A evaluated, 1 only B (t9)');
  });

  it('more runs are each compared with the first', async () => {
    const { code, text } = await capture(['compare', files.a, files.b, files.a, '--json']);
    expect(code).toBe(0);
    const [againstB, againstA] = JSON.parse(text);
    expect(againstB).toMatchObject({ a: files.a, b: files.b, shared_tasks: 8 });
    expect(againstB.difference).toBeCloseTo(0.1875, 12);
    expect(againstA).toMatchObject({ a: files.a, b: files.a, difference: 0, resolved: false, shared_tasks: 8, p_value: 1 });
  });

  it('a run id without --api is refused, naming it', async () => {
    const { code, errors } = await capture(['compare', files.a, 'run-123']);
    expect(code).not.toBe(0);
    expect(errors).toContain('run-123 is not a file; to compare a run of an API give --api URL');
  });
});
