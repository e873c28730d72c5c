// `npm run limits` on a small load (2-turn conversations, 1 live episode per domain): one line per platform limit,
// each with a measured number (none "not measured"), none over its limit but the CPU times (measured here while
// the suite loads the machine; `npm run limits` run alone judges them), and the per-invocation figures taken over
// HTTP requests, queue batches, object calls and cron.
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { PLATFORM_LIMITS } from '../../scripts/limits/platform.ts';

describe('npm run limits', () => {
  it('prints every figure measured', { timeout: 900_000 }, async () => {
    const { stdout, exitCode } = await execa(process.execPath, ['scripts/limits.ts', '--live', '1', '--turns', '2'], { reject: false, all: true });
    const lines = stdout.split('\n').filter((line) => line.startsWith('limit '));
    const names = Object.keys(PLATFORM_LIMITS);
    expect(lines.map((line) => line.split(':')[0]!.slice('limit '.length)).sort()).toEqual([...names].sort());
    const nameOf = (line: string) => line.slice('limit '.length, line.indexOf(':'));
    const times = new Set(['startup_ms', 'cpu_ms_per_invocation']);
    for (const line of lines) expect(line).toMatch(times.has(nameOf(line)) ? /^limit \w+: \d+(\.\d+)? \/ \d+ \S+( OVER)?(  \(.*\))?$/ : /^limit \w+: \d+(\.\d+)? \/ \d+ \S+(  \(.*\))?$/);
    // The per-invocation figures count real calls, over every kind of invocation the load makes.
    const figure = (name: string) => Number(/: ([\d.]+) \//.exec(lines.find((line) => line.startsWith(`limit ${name}:`))!)![1]);
    for (const name of ['subrequests_per_invocation', 'cpu_ms_per_invocation', 'd1_params_per_statement', 'd1_queries_per_invocation']) {
      expect(figure(name), name).toBeGreaterThan(0);
    }
    // Every domain's data and its live episodes fit in half an isolate's 128 MB (telecom's tasks held shared).
    expect(figure('isolate_memory')).toBeLessThanOrEqual(64);
    const traced = lines.find((line) => line.startsWith('limit subrequests_per_invocation:'))!;
    for (const kind of ['http', 'queue', 'rpc', 'cron']) expect(traced).toMatch(new RegExp(`\\d+ ${kind}\\b`));
    // The script fails a run with a figure over its limit, as an operator running it alone needs.
    expect(exitCode).toBe(lines.some((line) => / OVER\b/.test(line)) ? 1 : 0);
  });
});
