// The CLI's local worker dies with the CLI: after kill -9 of the process that started it, its whole process
// group (runtime, workerd) stops, and its guard removes its folder. Its secrets never reach the disk (they go
// through pipes), so a worker killed outright leaves none behind; a settings file that a killed worker of an
// earlier version left is swept when the next one starts.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/cli/local/worker.ts';
import { filesHolding } from '../support/files-holding.ts';
import { groupAlive } from '../support/process-group.ts';

const SECRET = 'sk-test-guard-secret-5e1d';

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};


/** A CLI process that starts a local worker (its temporary folder `tmp`) and keeps it until it is killed. */
const startCli = async (tmp: string, stateDir: string): Promise<{ cli: ChildProcess; url: string; pid: number }> => {
  const script = `
    import { startLocalWorker } from ${JSON.stringify(path.join(repoRoot, 'src/cli/local/worker.ts'))};
    const worker = await startLocalWorker({ env: { OPENAI_API_KEY: ${JSON.stringify(SECRET)}, API_KEY: ${JSON.stringify(`${SECRET}-operator`)} }, persistTo: process.argv[1], readyTimeoutMs: 280_000 });
    console.log(JSON.stringify({ url: worker.url, pid: worker.pid }));
    setInterval(() => undefined, 1000);
  `;
  const cli = spawn(process.execPath, ['--input-type=module', '-e', script, stateDir], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: tmp } });
  let out = '';
  cli.stdout!.on('data', (chunk) => (out += String(chunk)));
  await until(() => out.includes('\n'), 300_000);
  return { cli, ...(JSON.parse(out) as { url: string; pid: number }) };
};

/** The worker's own folder: the only one of its kind in the temporary folder the CLI was given. */
const workDirIn = async (tmp: string): Promise<string> => {
  const folders = (await readdir(tmp)).filter((name) => name.startsWith('tau2-edge-worker-'));
  expect(folders).toHaveLength(1);
  return path.join(tmp, folders[0]!);
};

const scratch = async (): Promise<{ tmp: string; stateDir: string; done: () => Promise<void> }> => {
  const root = await mkdtemp(path.join(tmpdir(), 'tau2-edge-guard-'));
  const tmp = path.join(root, 'tmp');
  await mkdir(tmp);
  return { tmp, stateDir: path.join(root, 'state'), done: () => rm(root, { recursive: true, force: true }) };
};

interface EarlyRun {
  readonly folders: string[];
  readonly after: string[];
  readonly entry: string;
  readonly runtime?: string;
  readonly health?: number;
}

/**
 * A process that starts the runtime early, waits a second and lists its temporary folder; then, unless `mode` is
 * `leave`, starts its worker and reports which module its runtime runs. The process runs from the current bundle
 * entry, as a command does; `stale` starts the early runtime from a copy of that entry's runtime module in another
 * folder, as an entry older than the sources.
 */
const runEarlyScript = (tmp: string, stateDir: string, mode: 'use' | 'leave' | 'stale'): Promise<EarlyRun> => {
  const script = `
    import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
    import path from 'node:path';
    import { startLocalWorker, startRuntimeEarly } from ${JSON.stringify(path.join(repoRoot, 'src/cli/local/worker.ts'))};
    import { cliBundleEntry } from ${JSON.stringify(path.join(repoRoot, 'src/cli/cli-bundle.ts'))};
    import { noteCommandEntry } from ${JSON.stringify(path.join(repoRoot, 'src/cli/cli-entry.mjs'))};
    const [stateDir, mode] = process.argv.slice(1);
    // As a command running from the current bundle entry notes it.
    const entry = await cliBundleEntry();
    noteCommandEntry(entry);
    if (mode === 'stale') {
      const older = path.join(process.env.TMPDIR, 'older-entry');
      await mkdir(older);
      await copyFile(path.join(entry, 'runtime.mjs'), path.join(older, 'runtime.mjs'));
      startRuntimeEarly(older);
    } else startRuntimeEarly();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const folders = await readdir(process.env.TMPDIR);
    if (mode === 'leave') {
      console.log(JSON.stringify({ folders, after: folders, entry }));
      process.exit(0);
    }
    const worker = await startLocalWorker({ persistTo: stateDir, readyTimeoutMs: 280_000 });
    const runtime = (await readFile('/proc/' + worker.pid + '/cmdline', 'utf8')).split('\\0')[1];
    const health = (await fetch(worker.url + '/v1/health')).status;
    console.log(JSON.stringify({ folders, after: await readdir(process.env.TMPDIR), entry, runtime, health }));
    await worker.stop();
    process.exit(0);
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, stateDir, mode], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: tmp } });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += String(chunk)));
    child.on('error', reject);
    child.on('close', () => resolve(JSON.parse(out) as EarlyRun));
  });
};

describe('the local worker', () => {
  it('stops, and its folder goes, when the command that started it is killed with kill -9; no secret is on disk meanwhile', async () => {
    const { tmp, stateDir, done } = await scratch();
    const { cli, url, pid } = await startCli(tmp, stateDir);
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    const workDir = await workDirIn(tmp);
    expect(await filesHolding(tmp, SECRET)).toEqual([]);
    expect(await filesHolding(stateDir, SECRET)).toEqual([]);

    cli.kill('SIGKILL');
    await until(() => !groupAlive(pid), 20_000);
    await expect(fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    // Its guard, outside the group, removes the folder once the group has gone.
    await until(() => access(workDir).then(() => false, () => true), 5_000);
    await done();
  }, 420_000);

  it('a runtime killed outright takes its workerd with it: the guard stops the rest of its group and removes its folder', async () => {
    const { tmp, stateDir, done } = await scratch();
    const { cli, url, pid } = await startCli(tmp, stateDir);
    try {
      const workDir = await workDirIn(tmp);
      // The runtime alone, as a crash of its Node process would end it: its workerd is left without it.
      process.kill(pid, 'SIGKILL');
      await until(() => !groupAlive(pid), 20_000);
      await expect(fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
      await until(() => access(workDir).then(() => false, () => true), 5_000);
    } finally {
      // Whatever the guard left (when it fails) goes, so that a failure does not hold the test run open.
      if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
      cli.kill('SIGKILL');
      await done();
    }
  }, 420_000);

  it("leaves no secret on disk when its process group is killed outright, and sweeps an earlier version's settings file at the next start", async () => {
    const { tmp, stateDir, done } = await scratch();
    const first = await startCli(tmp, stateDir);
    // As a crash would: the whole group at once, so nothing of it can clean up.
    process.kill(-first.pid, 'SIGKILL');
    await until(() => !groupAlive(first.pid), 20_000);
    first.cli.kill('SIGKILL');
    expect(await filesHolding(tmp, SECRET)).toEqual([]);
    expect(await filesHolding(stateDir, SECRET)).toEqual([]);

    // A leftover of an hour ago goes; a file written a moment ago may be an earlier version's worker starting now.
    const [leftover, starting] = ['left', 'starting'].map((name) => path.join(tmp, `tau2-edge-worker-${name}`, 'worker-vars.json')) as [string, string];
    for (const file of [leftover, starting]) {
      await mkdir(path.dirname(file));
      await writeFile(file, JSON.stringify({ OPENAI_API_KEY: SECRET }), { mode: 0o600 });
    }
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(leftover, hourAgo, hourAgo);
    const second = await startCli(tmp, stateDir);
    await expect(access(leftover)).rejects.toThrow();
    expect(await filesHolding(tmp, SECRET)).toEqual([starting]);
    second.cli.kill('SIGKILL');
    await until(() => !groupAlive(second.pid), 20_000);
    await done();
  }, 720_000);

  it('a runtime started early, from the command line bundle, is the one the worker then uses; one never used ends with its command, folder and all', async () => {
    const { tmp, stateDir, done } = await scratch();
    try {
      const used = await runEarlyScript(tmp, stateDir, 'use');
      expect(used.health).toBe(200);
      // It ran from the current entry of the command line's bundle, not from its sources.
      expect(used.runtime).toBe(path.join(used.entry, 'runtime.mjs'));
      // The early runtime's folder is the only one: the worker started no second runtime.
      expect(used.folders.filter((f) => f.startsWith('tau2-edge-worker-'))).toHaveLength(1);
      expect(used.after.filter((f) => f.startsWith('tau2-edge-worker-'))).toEqual(used.folders.filter((f) => f.startsWith('tau2-edge-worker-')));
      const unused = await runEarlyScript(tmp, stateDir, 'leave');
      expect(unused.folders.filter((f) => f.startsWith('tau2-edge-worker-'))).toHaveLength(1);
      await until(async () => (await readdir(tmp)).filter((f) => f.startsWith('tau2-edge-worker-')).length === 0, 30_000);
    } finally {
      await done();
    }
  }, 300_000);

  it('a runtime started early from a bundle entry other than the one the command runs from is let go; the worker runs one from its sources', async () => {
    const { tmp, stateDir, done } = await scratch();
    try {
      const stale = await runEarlyScript(tmp, stateDir, 'stale');
      expect(stale.health).toBe(200);
      expect(stale.runtime).toBe(path.join(repoRoot, 'src/cli/local/runtime.ts'));
      const [early] = stale.folders.filter((f) => f.startsWith('tau2-edge-worker-'));
      expect(early).toBeDefined();
      // The worker's folder is a new one; the early runtime's goes with it.
      expect(stale.after.filter((f) => f.startsWith('tau2-edge-worker-') && f !== early)).toHaveLength(1);
      await until(async () => (await readdir(tmp)).filter((f) => f.startsWith('tau2-edge-worker-')).length === 0, 30_000);
    } finally {
      await done();
    }
  }, 300_000);

  it('a run refused before its worker starts exits at once; the runtime it started early ends with it', async () => {
    const { tmp, done } = await scratch();
    try {
      const started = Date.now();
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(path.join(repoRoot, 'bin', 'tau2-edge'), ['run', '--domain', 'mok'], { stdio: 'ignore', env: { ...process.env, TMPDIR: tmp } });
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.on('error', reject);
        child.on('close', (exit) => {
          clearTimeout(timer);
          resolve(exit);
        });
      });
      expect(code).toBe(2);
      expect(Date.now() - started).toBeLessThan(45_000);
      await until(async () => (await readdir(tmp)).filter((f) => f.startsWith('tau2-edge-worker-')).length === 0, 30_000);
    } finally {
      await done();
    }
  }, 120_000);
});
