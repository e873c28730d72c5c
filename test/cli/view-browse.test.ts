// `tau2-edge view` on a terminal: the interactive browser, driven through its input stream with the keys a person
// presses (arrows, Enter, Ctrl-C): pick a run, read a simulation, go back, quit.
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regradeFixtureText } from '../support/regrade.ts';
import { browse } from '../../src/cli/commands/view.ts';

const DOWN = '\x1b[B';
const ENTER = '\r';
const CTRL_C = '\x03';

let dir: string;
const saved = process.env.TAU2_EDGE_SIMULATIONS_DIR;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-browse-'));
  process.env.TAU2_EDGE_SIMULATIONS_DIR = dir;
  const mock = await regradeFixtureText({ domain: 'mock', fixture: new URL('../fixtures/mock-results-b3.json', import.meta.url), policy: 'domains/mock/policy.md' });
  const airline = await regradeFixtureText({ domain: 'airline', fixture: new URL('../fixtures/airline-results-regrade.json', import.meta.url), policy: 'domains/airline/policy.md' });
  await writeFile(path.join(dir, '20260101_000000_mock.json'), mock);
  await writeFile(path.join(dir, '20260102_000000_airline.json'), airline);
  await writeFile(path.join(dir, '20260103_000000_broken.json'), '{"not": "results"}');
  // Runs are offered newest first: the mock run is made the newest.
  const now = Date.now() / 1000;
  await utimes(path.join(dir, '20260101_000000_mock.json'), now, now);
  await utimes(path.join(dir, '20260102_000000_airline.json'), now - 60, now - 60);
});
afterAll(async () => {
  if (saved === undefined) delete process.env.TAU2_EDGE_SIMULATIONS_DIR;
  else process.env.TAU2_EDGE_SIMULATIONS_DIR = saved;
  await rm(dir, { recursive: true, force: true });
});

/** Runs the browser, pressing each key once the screen shows the prompt it waits for (`? message`, not yet answered). */
const drive = async (target: string | undefined, steps: readonly (readonly [waitFor: string, keys: string])[], flags = {}) => {
  const input = new PassThrough();
  let screen = '';
  // A terminal: each prompt pipes into it and ends its pipe when done, which a real terminal outlives.
  const output = new Writable({ write: (chunk: Buffer, _encoding, next) => ((screen += chunk.toString()), next()) });
  output.end = () => output;
  const shown: string[] = [];
  const done = browse(target, flags, { input, output, out: (text) => shown.push(text) });
  let seen = 0;
  for (const [waitFor, keys] of steps) {
    const deadline = Date.now() + 5_000;
    const prompt = new RegExp(`\\? [^\\n]*${waitFor.replace(/[()^$.*+?[\]{}|\\]/g, '\\$&')}`);
    while (!prompt.test(screen.slice(seen))) {
      if (Date.now() > deadline) throw new Error(`the screen never showed "${waitFor}":\n${screen.slice(seen)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    seen = screen.length;
    for (const key of keys.match(/\x1b\[B|[\s\S]/g) ?? []) input.write(key);
  }
  const code = await done;
  return { code, shown: shown.join('\n'), screen };
};

describe('tau2-edge view on a terminal', () => {
  it('picks a saved run, reads a simulation, goes back to the runs and quits', async () => {
    const { code, shown, screen } = await drive(undefined, [
      ['2 saved run(s): pick one', ENTER],
      ['1 simulation(s): pick one to read', ENTER],
      ['1 simulation(s): pick one to read', `${DOWN}${ENTER}`],
      ['2 saved run(s): pick one', `${DOWN}${DOWN}${ENTER}`],
    ]);
    expect(code).toBe(0);
    // The broken file is not offered; both runs are, by name.
    expect(screen).toContain('20260101_000000_mock.json  mock · llm_agent');
    expect(screen).toContain('20260102_000000_airline.json  airline');
    expect(screen.indexOf('20260101_000000_mock.json')).toBeLessThan(screen.indexOf('20260102_000000_airline.json'));
    expect(screen).not.toContain('20260103_000000_broken.json');
    expect(screen).toContain('create_task_1 · trial 0 · user_stop · reward');
    expect(shown).toMatch(/^domain mock · agent llm_agent/m);
    expect(shown).toContain('=== Overview ===');
    expect(shown).toMatch(/^simulation \S+ · task create_task_1 · trial 0 · user_stop/m);
  });

  it('a results file opens at its simulations (filters apply); Ctrl-C leaves quietly', async () => {
    const file = path.join(dir, '20260102_000000_airline.json');
    const { code, shown, screen } = await drive(file, [['simulation(s): pick one to read', CTRL_C]], { onlyShowFailed: true });
    expect(code).toBe(0);
    expect(shown).toMatch(/^domain airline/m);
    const offered = Number(/(\d+) simulation\(s\): pick one to read/.exec(screen)?.[1]);
    expect(offered).toBeGreaterThan(0);
    expect(offered).toBeLessThan(21);
    expect(screen).not.toContain('back to the runs');
  });
});
