// `tau2-edge generate-tasks` writes the telecom data files the reference released.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { fileDataSource } from '../../../src/cli/data.ts';

describe('tau2-edge generate-tasks', () => {
  it.each(['tasks_small.json', 'split_tasks.json'])('--domain telecom --file %s --out PATH writes it byte for byte', async (name) => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'tau2-edge-')), name);
    expect(await main(['generate-tasks', '--domain', 'telecom', '--file', name, '--out', file])).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(await fileDataSource().readText(`domains/telecom/${name}`));
  });

  it('refuses a domain without a generator and a file the generator does not make', async () => {
    expect(await main(['generate-tasks', '--domain', 'airline'])).toBe(1);
    expect(await main(['generate-tasks', '--domain', 'telecom', '--file', 'db.toml'])).toBe(1);
  });
});
