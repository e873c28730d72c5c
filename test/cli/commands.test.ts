// The command line: check-data and evaluate-trajs on real data, through the same entry point users run.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { fileDataSource } from '../../src/cli/data.ts';

const capture = async (argv: string[]): Promise<{ code: number; lines: string[] }> => {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
  try {
    return { code: await main(argv), lines };
  } finally {
    process.stdout.write = write;
  }
};

describe('tau2-edge CLI', () => {
  it('check-data --domain mock passes, naming the known reference issues', async () => {
    const { code, lines } = await capture(['check-data', '--domain', 'mock']);
    expect(code).toBe(0);
    expect(lines.at(-1)).toMatch(/^check-data mock: 10 \/ 10 tasks ok \(2 known reference issues\), 0 failed/);
  });

  it('tasks --domain mock --split base prints the ten tasks as JSON', async () => {
    const { lines } = await capture(['tasks', '--domain', 'mock', '--split', 'base']);
    expect(JSON.parse(lines.join('\n'))).toHaveLength(10);
  });

  it('evaluate-trajs re-grades a reference results file: agree 1 / 1, and reports a tampered verdict', async () => {
    let text = await readFile(new URL('../fixtures/mock-results-b3.json', import.meta.url), 'utf8');
    for (const file of ['user_simulator/simulation_guidelines.md', 'domains/mock/policy.md']) {
      text = text.replaceAll(`"{{${file}}}"`, JSON.stringify(await fileDataSource().readText(file)));
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-'));
    const good = path.join(dir, 'good.json');
    await writeFile(good, text);
    const ok = await capture(['evaluate-trajs', good, '--out', path.join(dir, 'out.json')]);
    expect(ok.lines.at(-1)).toBe('agree 1 / 1');
    expect(ok.code).toBe(0);

    const tampered = path.join(dir, 'tampered.json');
    await writeFile(tampered, text.replace('"db_match": true', '"db_match": false'));
    const bad = await capture(['evaluate-trajs', tampered]);
    expect(bad.lines.some((l) => l.startsWith('DIFF task create_task_1') && l.includes('db_match: false -> true'))).toBe(true);
    expect(bad.lines.at(-1)).toBe('agree 0 / 1');
    expect(bad.code).toBe(1);
  });
});
