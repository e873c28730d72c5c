// No import cycle in src/worker: every module of the Worker (the episode, its transports, tenancy, runs, the HTTP
// layer) can be read and tested on its own, without the modules that depend on it. src/core's episode engine
// stands in none either.
import { describe, expect, it } from 'vitest';
import { importCycles } from '../../support/import-cycles.ts';

describe('import cycles', () => {
  it('finds a cycle where there is one (two modules importing each other)', () => {
    const cycles = importCycles('test/core/structure/fixtures/cycle');
    expect(cycles).toEqual([['a.ts', 'b.ts']]);
  });

  it('finds a cycle across folders, through a re-export, and leaves the modules outside it out', () => {
    const cycles = importCycles('test/core/structure/fixtures/nested-cycle');
    expect(cycles).toEqual([['api/errors.ts', 'tenancy/quotas.ts']]);
  });

  it('src/worker has no import cycle', () => {
    expect(importCycles('src/worker')).toEqual([]);
  });

  it('src/core/episode stands in no cycle of src/core', () => {
    expect(importCycles('src/core').filter((cycle) => cycle.some((m) => m.startsWith('episode/')))).toEqual([]);
  });
});
