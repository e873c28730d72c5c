// The episode's modules stand in no import cycle: the core engine of an episode, the Worker's episode object and
// service, the turn producer and every transport that steps an episode (the step API, OpenEnv, MCP).
import { describe, expect, it } from 'vitest';
import { importCycles } from '../../support/import-cycles.ts';

const EPISODE_MODULES = /^(episode\/|turns\/|openenv\/|api\/episodes\.ts$)/;

describe('import cycles', () => {
  it('finds a cycle where there is one (two modules importing each other)', () => {
    const cycles = importCycles('test/core/structure/fixtures/cycle');
    expect(cycles).toEqual([['a.ts', 'b.ts']]);
  });

  it('no cycle in src/worker passes through an episode module or a transport', () => {
    const touching = importCycles('src/worker').filter((cycle) => cycle.some((m) => EPISODE_MODULES.test(m)));
    expect(touching).toEqual([]);
  });

  it('src/core/episode stands in no cycle of src/core', () => {
    expect(importCycles('src/core').filter((cycle) => cycle.some((m) => m.startsWith('episode/')))).toEqual([]);
  });
});
