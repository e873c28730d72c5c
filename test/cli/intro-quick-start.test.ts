// `intro`'s quick start works as printed: each command line is run from the checkout's root exactly as shown
// (the run against the scripted provider through OPENAI_BASE_URL, as a user's key would reach OpenAI).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockConversation, startFakeOpenAI } from '../support/fake-openai.ts';
import type { FakeOpenAI } from '../support/fake-openai.ts';
import { capture } from '../support/cli.ts';
import { repoRoot } from '../../src/cli/checkout.mjs';

let fake: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
  dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-intro-'));
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs a printed command line in a shell at the checkout's root, stdin closed; its output and exit code. */
const runPrinted = (line: string): Promise<{ out: string; code: number | null }> =>
  new Promise((resolve, reject) => {
    const env = { ...process.env, PATH: '/usr/bin:/bin', OPENAI_API_KEY: 'sk-test-intro', OPENAI_BASE_URL: fake.baseURL, TAU2_EDGE_SIMULATIONS_DIR: dir };
    const child = spawn('bash', ['-c', line], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ out, code }));
  });

describe('intro quick start', () => {
  it('every command it prints runs as printed from the checkout, with nothing on PATH but the system', async () => {
    const { text } = await capture(['intro']);
    const quickStart = text.slice(text.indexOf('=== Quick Start ==='));
    const lines = quickStart.split('\n').filter((line) => /^(bin\/tau2-edge|npx tau2-edge|tau2-edge) /.test(line));
    expect(lines.map((line) => line.split(' ')[1])).toEqual(['check-data', 'run', 'view', 'play']);

    const [checkData, run, view, play] = await lines.reduce<Promise<{ out: string; code: number | null }[]>>(
      async (done, line) => [...(await done), await runPrinted(line)],
      Promise.resolve([]),
    );
    expect(checkData).toMatchObject({ code: 0 });
    expect(checkData!.out).toMatch(/^check-data mock: 10 \/ 10 tasks ok/m);
    expect(run!.out).toMatch(/^\[5\/5\] task /m);
    expect(run!.out).toContain('results saved to');
    expect(run!.code).toBe(0);
    expect(view).toMatchObject({ code: 0 });
    expect(view!.out).toContain('mock');
    // play is interactive: with no terminal it asks its first question, then says the input ended.
    expect(play!.out).toContain('Select a domain');
    expect(play!.out).toContain('the input ended');
  }, 300_000);
});
