// Wrangler as the deploy's only way to the Cloudflare account: each command runs with the generated deploy
// configuration, without a terminal (wrangler then takes its non-interactive defaults), and its output is
// captured, never echoed, so that nothing it prints reaches the deploy's own output unless a step fails. It is
// asked for no colour and any left is removed: its output is parsed and quoted, where a terminal's codes are noise.
import { stripVTControlCharacters } from 'node:util';
import { execa } from 'execa';
import { repoRoot, wranglerBin } from '../../src/cli/local/worker.ts';

export interface WranglerResult {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

export type Wrangler = (args: readonly string[], options?: { readonly withConfig?: boolean }) => Promise<WranglerResult>;

export class WranglerError extends Error {}

/** Runs wrangler commands against `configPath`; the environment carries the account's credentials. */
export const wranglerWith = (configPath: string, env: NodeJS.ProcessEnv = process.env): Wrangler =>
  async (args, { withConfig = true } = {}) => {
    const result = await execa(wranglerBin, [...args, ...(withConfig ? ['--config', configPath] : [])], {
      cwd: repoRoot,
      env: { ...env, WRANGLER_SEND_METRICS: 'false', CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1' },
      extendEnv: false,
      stdin: 'ignore',
      reject: false,
    });
    return { ok: result.exitCode === 0, stdout: stripVTControlCharacters(String(result.stdout)), stderr: stripVTControlCharacters(String(result.stderr)) };
  };

/** The result of a command that must succeed; its output becomes the error's message otherwise. */
export const required = async (wrangler: Wrangler, args: readonly string[]): Promise<string> => {
  const result = await wrangler(args);
  if (!result.ok) throw new WranglerError(`wrangler ${args.join(' ')} failed:\n${result.stderr || result.stdout}`);
  return result.stdout;
};
