// The Worker's secrets at deploy: only the missing ones are set. CREDENTIALS_KEY is generated; API_KEY and the
// provider keys come from the deploying environment (under their own names) or are asked for on a terminal
// without echo. Values are only ever handed to wrangler through a private file; nothing here prints one.
import { randomBytes } from 'node:crypto';
import { password } from '@inquirer/prompts';
import type { Wrangler } from './wrangler.ts';
import { PROVIDERS, PROVIDER_KEY_VARS } from '../../src/core/llm/providers.ts';

/** The key asked for on a terminal when no provider key is set: the OpenAI-compatible endpoint's. */
const ASKED_KEY = PROVIDERS.openai.keyVars[0];

export type SecretSource = 'generated' | 'environment' | 'terminal';

export interface SecretPlan {
  /** Names already set on the Worker (left as they are). */
  readonly present: readonly string[];
  /** Secrets to set, with where each value came from. */
  readonly set: ReadonlyMap<string, { readonly value: string; readonly source: SecretSource }>;
  /** Why a wanted secret is left unset. */
  readonly notes: readonly string[];
}

/** Names of the secrets the Worker has; none when it is not deployed yet. */
export const presentSecrets = async (wrangler: Wrangler): Promise<string[]> => {
  const result = await wrangler(['secret', 'list', '--format', 'json']);
  if (!result.ok) {
    if (/not found/i.test(result.stderr + result.stdout)) return [];
    throw new Error(`wrangler secret list failed:\n${result.stderr || result.stdout}`);
  }
  return (JSON.parse(result.stdout) as { name: string }[]).map((s) => s.name);
};

export interface SecretInputs {
  readonly env: NodeJS.ProcessEnv;
  /** Asks for a value without echo; null when there is no terminal. */
  readonly ask: ((name: string, why: string) => Promise<string>) | null;
}

/** Asks on the terminal when there is one (stdin and stdout both a TTY); input is not echoed. */
export const terminalInputs = (env: NodeJS.ProcessEnv = process.env): SecretInputs => ({
  env,
  ask: process.stdin.isTTY && process.stdout.isTTY ? (name, why) => password({ message: `${name} (${why}):`, mask: false }) : null,
});

/** The secrets to set; in a dry run nothing is asked, and what would be is noted instead. */
export const planSecrets = async (present: readonly string[], inputs: SecretInputs, { dryRun = false } = {}): Promise<SecretPlan> => {
  const set = new Map<string, { value: string; source: SecretSource }>();
  const notes: string[] = [];
  const has = (name: string) => present.includes(name);
  if (!has('CREDENTIALS_KEY')) set.set('CREDENTIALS_KEY', { value: randomBytes(32).toString('base64'), source: 'generated' });
  const fromEnv = (name: string) => {
    const value = inputs.env[name]?.trim();
    if (!has(name) && value) set.set(name, { value, source: 'environment' });
  };
  fromEnv('API_KEY');
  PROVIDER_KEY_VARS.forEach(fromEnv);
  if (!has('API_KEY') && !set.has('API_KEY')) {
    const value = (await inputs.ask?.('API_KEY', 'every route but /v1/health will need it as a Bearer token'))?.trim();
    if (!value && dryRun) notes.push('API_KEY would be asked for (or set API_KEY in the environment)');
    else if (!value) throw new Error('API_KEY is not set on the Worker: give it in the environment (API_KEY=…) or on a terminal');
    else set.set('API_KEY', { value, source: 'terminal' });
  }
  if (!PROVIDER_KEY_VARS.some((name) => has(name) || set.has(name))) {
    const value = (await inputs.ask?.(ASKED_KEY, `sent to ${PROVIDERS.openai.baseUrlVar}; empty to skip`))?.trim();
    if (value) set.set(ASKED_KEY, { value, source: 'terminal' });
    else notes.push(`no provider key (${PROVIDER_KEY_VARS.join(', ')}): runs can use only tenants' own provider keys`);
  }
  return { present, set, notes };
};
