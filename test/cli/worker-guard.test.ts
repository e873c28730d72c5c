// The CLI's local worker dies with the CLI: after kill -9 of the process that started it, its whole process
// group (guard, runtime, workerd) stops and its private env file is removed.
import { spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/cli/local-worker.ts';

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

describe('the local worker', () => {
  it('stops, and its env file goes, when the command that started it is killed with kill -9', async () => {
    const script = `
      import { startLocalWorker } from ${JSON.stringify(path.join(repoRoot, 'src/cli/local-worker.ts'))};
      const worker = await startLocalWorker({ env: { OPENAI_API_KEY: 'sk-test-guard' }, persistTo: process.argv[1] });
      console.log(JSON.stringify({ url: worker.url, pid: worker.pid }));
      setInterval(() => undefined, 1000);
    `;
    const stateDir = await mkdtemp(path.join(tmpdir(), 'tau2-edge-guard-'));
    const cli = spawn(process.execPath, ['--input-type=module', '-e', script, stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    cli.stdout.on('data', (chunk) => (out += String(chunk)));
    await until(() => out.includes('\n'), 90_000);
    const { url, pid } = JSON.parse(out) as { url: string; pid: number };
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    // The guard's arguments name the worker's private env folder.
    const envDir = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[2]!;
    await access(path.join(envDir, 'worker-vars.json'));

    cli.kill('SIGKILL');
    await until(() => !alive(pid), 20_000);
    await expect(fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
    await expect(access(envDir)).rejects.toThrow();
    await rm(stateDir, { recursive: true, force: true });
  }, 120_000);
});
