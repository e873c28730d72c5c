// `npm run probe` replays every attack on the hosted service against a real local worker; CI keeps it green.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/cli/local/worker.ts';

describe('probe', () => {
  it('every attack is refused, contained or survived: no FAIL line, exit 0', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'scripts', 'probe.ts')], { cwd: repoRoot, timeout: 240_000 }).catch(
      (error: { stdout?: string; code?: number }) => {
        throw new Error(`probe failed (exit ${error.code}):\n${error.stdout ?? ''}`);
      },
    );
    const lines = stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
    expect(lines.filter((line) => line.startsWith('ok')).length).toBeGreaterThanOrEqual(40);
  }, 300_000);
});
