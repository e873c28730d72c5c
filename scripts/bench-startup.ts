// Start-up on the default path: `bin/tau2-edge run` of one mock episode against the scripted provider, timed from
// the command to the first episode's first model call (the local Worker started, the run created, its first
// episode stepping) and to that episode's line. The first start builds the Worker's and the command line's
// bundles when the sources changed since the last one; the timed starts after it are those of an unchanged
// checkout (target: 1.5 s).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mockConversation, startFakeOpenAI } from '../test/support/fake-openai.ts';
import type { FakeOpenAI } from '../test/support/fake-openai.ts';
import { repoRoot } from '../src/cli/checkout.mjs';
import { median } from './bench-quantile.ts';

const TIMED_STARTS = 5;
const TARGET_SECONDS = 1.5;

interface Start {
  /** Seconds from the command to the first model call, and to the episode's progress line. */
  readonly firstCall: number;
  readonly firstEpisode: number;
}

const startOnce = (fake: FakeOpenAI, dir: string, n: number): Promise<Start> =>
  new Promise((resolve, reject) => {
    const before = fake.requests.length;
    const started = performance.now();
    let firstCall: number | null = null;
    const args = ['run', '--domain', 'mock', '--task-ids', 'create_task_1', '--agent-llm', 'fake-agent', '--user-llm', 'fake-user', '--llm-base-url', fake.baseURL, '--save-to', path.join(dir, `start-${n}.json`)];
    const child = spawn(path.join(repoRoot, 'bin', 'tau2-edge'), args, { env: { ...process.env, OPENAI_API_KEY: 'sk-bench' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const watch = setInterval(() => {
      if (firstCall === null && fake.requests.length > before) firstCall = (performance.now() - started) / 1000;
    }, 5);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (/^\[1\/1\] task /m.test(out)) {
        clearInterval(watch);
        resolve({ firstCall: firstCall ?? (performance.now() - started) / 1000, firstEpisode: (performance.now() - started) / 1000 });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(watch);
      if (!/^\[1\/1\] task /m.test(out)) reject(new Error(`run exited ${code} before its first episode:\n${out}`));
    });
  });

const spread = (values: readonly number[]): string =>
  `median ${median([...values]).toFixed(2)} s (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)} s)`;

export const benchStartup = async (): Promise<string[]> => {
  const fake = await startFakeOpenAI();
  fake.setHandler(mockConversation());
  const dir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-bench-startup-'));
  try {
    const first = await startOnce(fake, dir, 0);
    const starts: Start[] = [];
    for (let n = 1; n <= TIMED_STARTS; n++) starts.push(await startOnce(fake, dir, n));
    return [
      `start-up (default path, unchanged checkout, target ${TARGET_SECONDS} s): command to first model call ${spread(starts.map((s) => s.firstCall))}, ` +
        `to first episode done ${spread(starts.map((s) => s.firstEpisode))} over ${TIMED_STARTS} starts`,
      `  first start (builds the Worker's and the command line's bundles when the sources changed): first model call ${first.firstCall.toFixed(2)} s`,
    ];
  } finally {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
};

if (import.meta.main) for (const line of await benchStartup()) console.log(line);
