// The checkout's local secrets files: .env and .dev.vars (where provider keys go) are never committed, and
// .dev.vars.example names every variable the Worker reads, with no value.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/cli/checkout.mjs';
import { PROVIDER_VARS } from '../../src/core/llm/providers.ts';

const ignored = async (file: string): Promise<boolean> =>
  promisify(execFile)('git', ['check-ignore', '--no-index', '--quiet', file], { cwd: repoRoot }).then(
    () => true,
    (error: { code?: number }) => {
      if (error.code === 1) return false;
      throw error;
    },
  );

/** Names a Worker source reads through a cast of its env, e.g. `(env as { ALLOW_LOCAL_PROVIDERS?: string })`. */
const castNames = async (): Promise<string[]> => {
  const dir = path.join(repoRoot, 'src/worker');
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts'));
  const texts = await Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')));
  return texts.flatMap((text) => [...text.matchAll(/env as (?:unknown as )?\{ ([A-Z][A-Z0-9_]+)\?: string \}/g)].map((m) => m[1]!));
};

/** Every variable the Worker reads: the providers' registry, the operator limits, wrangler.toml's vars, env.ts's secrets and cast reads. */
const workerVariables = async (): Promise<string[]> => {
  const toml = parseToml(await readFile(path.join(repoRoot, 'wrangler.toml'), 'utf8')) as { vars: Record<string, string> };
  const declared = [...(await readFile(path.join(repoRoot, 'src/worker/env.ts'), 'utf8')).matchAll(/^\s+([A-Z][A-Z0-9_]+)\?:/gm)].map((m) => m[1]!);
  // LIMIT_DEFAULTS' keys, read from the source: the module needs the Worker's global Env type.
  const limits = [...(await readFile(path.join(repoRoot, 'src/worker/tenancy/limits.ts'), 'utf8')).matchAll(/^ {2}(LIMIT_[A-Z_]+):/gm)].map((m) => m[1]!);
  return [...new Set([...PROVIDER_VARS, ...limits, ...Object.keys(toml.vars), ...declared, ...(await castNames())])];
};

describe('local secrets files', () => {
  it('.env, .env.* and .dev.vars are ignored by git; .dev.vars.example is not', async () => {
    for (const file of ['.env', '.env.local', '.dev.vars', '.dev.vars.production']) expect(await ignored(file), file).toBe(true);
    expect(await ignored('.dev.vars.example')).toBe(false);
  });

  it('.dev.vars.example names every variable the Worker reads, each without a value', async () => {
    const text = await readFile(path.join(repoRoot, '.dev.vars.example'), 'utf8');
    const names = await workerVariables();
    expect(names).toEqual(expect.arrayContaining(['OPENAI_API_KEY', 'API_KEY', 'LIMIT_MAX_TRIALS', 'GIT_COMMIT', 'ALLOW_LOCAL_PROVIDERS', 'LIMIT_LIVE_OBJECTS']));
    for (const name of names) expect(text, name).toMatch(new RegExp(`^# ${name}=$`, 'm'));
    expect(text.split('\n').filter((line) => /^#? ?[A-Z][A-Z0-9_]*=./.test(line))).toEqual([]);
  });
});
