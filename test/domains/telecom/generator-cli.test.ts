// `tau2-edge generate-tasks` writes the telecom task files the reference released.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { fileDataSource } from '../../../src/cli/data.ts';

describe('tau2-edge generate-tasks', () => {
  it('--domain telecom --split small --out FILE writes tasks_small.json byte for byte', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'tau2-edge-')), 'tasks_small.json');
    expect(await main(['generate-tasks', '--domain', 'telecom', '--split', 'small', '--out', file])).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(await fileDataSource().readText('domains/telecom/tasks_small.json'));
  });

  it('refuses a domain without a generator and a split the generator cannot make', async () => {
    expect(await main(['generate-tasks', '--domain', 'airline'])).toBe(1);
    expect(await main(['generate-tasks', '--domain', 'telecom', '--split', 'base'])).toBe(1);
  });
});
