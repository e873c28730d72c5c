// The CLI's local worker dies with the CLI: after kill -9 of the process that started it, its whole process
// group (guard, runtime, workerd) stops and its folder is removed. Its secrets never reach the disk (they go
// through pipes), so a worker killed outright leaves none behind; a settings file that a killed worker of an
// earlier version left is swept when the next one starts.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/cli/local-worker.ts';

const SECRET = 'sk-test-guard-secret-5e1d';

const alive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Every file under `dir` whose bytes hold `text`. */
const filesHolding = async (dir: string, text: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  const holding = await Promise.all(files.map(async (file) => ((await readFile(file).catch(() => Buffer.alloc(0))).includes(text) ? file : null)));
  return holding.filter((file) => file !== null);
};

/** A CLI process that starts a local worker (its temporary folder `tmp`) and keeps it until it is killed. */
const startCli = async (tmp: string, stateDir: string): Promise<{ cli: ChildProcess; url: string; pid: number }> => {
  const script = `
    import { startLocalWorker } from ${JSON.stringify(path.join(repoRoot, 'src/cli/local-worker.ts'))};
    const worker = await startLocalWorker({ env: { OPENAI_API_KEY: ${JSON.stringify(SECRET)}, API_KEY: ${JSON.stringify(`${SECRET}-operator`)} }, persistTo: process.argv[1] });
    console.log(JSON.stringify({ url: worker.url, pid: worker.pid }));
    setInterval(() => undefined, 1000);
  `;
  const cli = spawn(process.execPath, ['--input-type=module', '-e', script, stateDir], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: tmp } });
  let out = '';
  cli.stdout!.on('data', (chunk) => (out += String(chunk)));
  await until(() => out.includes('\n'), 150_000);
  return { cli, ...(JSON.parse(out) as { url: string; pid: number }) };
};

/** The worker's own folder: the guard's first argument. */
const workDirOf = async (pid: number): Promise<string> => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[2]!;

const scratch = async (): Promise<{ tmp: string; stateDir: string; done: () => Promise<void> }> => {
  const root = await mkdtemp(path.join(tmpdir(), 'tau2-edge-guard-'));
  const tmp = path.join(root, 'tmp');
  await mkdir(tmp);
  return { tmp, stateDir: path.join(root, 'state'), done: () => rm(root, { recursive: true, force: true }) };
};

describe('the local worker', () => {
  it('stops, and its folder goes, when the command that started it is killed with kill -9; no secret is on disk meanwhile', async () => {
    const { tmp, stateDir, done } = await scratch();
    const { cli, url, pid } = await startCli(tmp, stateDir);
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    const workDir = await workDirOf(pid);
    expect(path.dirname(workDir)).toBe(tmp);
    await access(workDir);
    expect(await filesHolding(tmp, SECRET)).toEqual([]);
    expect(await filesHolding(stateDir, SECRET)).toEqual([]);

    cli.kill('SIGKILL');
    await until(() => !alive(pid), 20_000);
    await expect(fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    await expect(access(workDir)).rejects.toThrow();
    await done();
  }, 240_000);

  it("leaves no secret on disk when its process group is killed outright, and sweeps an earlier version's settings file at the next start", async () => {
    const { tmp, stateDir, done } = await scratch();
    const first = await startCli(tmp, stateDir);
    // As a crash would: the whole group at once, so nothing of it can clean up.
    process.kill(-first.pid, 'SIGKILL');
    await until(() => !alive(first.pid), 20_000);
    first.cli.kill('SIGKILL');
    expect(await filesHolding(tmp, SECRET)).toEqual([]);
    expect(await filesHolding(stateDir, SECRET)).toEqual([]);

    const leftover = path.join(tmp, 'tau2-edge-worker-left', 'worker-vars.json');
    await mkdir(path.dirname(leftover));
    await writeFile(leftover, JSON.stringify({ OPENAI_API_KEY: SECRET }), { mode: 0o600 });
    const second = await startCli(tmp, stateDir);
    await expect(access(leftover)).rejects.toThrow();
    expect(await filesHolding(tmp, SECRET)).toEqual([]);
    second.cli.kill('SIGKILL');
    await until(() => !alive(second.pid), 20_000);
    await done();
  }, 400_000);
});
