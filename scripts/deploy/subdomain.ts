// The account's workers.dev subdomain, read before anything is created: the Worker is published on
// <worker>.<subdomain>.workers.dev, and wrangler deploy finds a missing subdomain only after the database, the
// queue and the migrations exist. Read with the environment's API token, or else wrangler's login (`wrangler auth
// token`, a process of its own that the token at hand does not need).
import { z } from 'zod';
import type { Wrangler } from './wrangler.ts';
import { required } from './wrangler.ts';

const API = 'https://api.cloudflare.com/client/v4';
const TokenSchema = z.object({ token: z.string().min(1) });
const EnvelopeSchema = z.object({ success: z.boolean(), result: z.unknown(), errors: z.array(z.object({ code: z.number(), message: z.string() })).default([]) });
const SubdomainSchema = z.object({ subdomain: z.string().min(1) });
const AccountsSchema = z.array(z.object({ id: z.string() }));

/** How to give an account its subdomain, in the words of the deploy's failure. */
const howToEnable = (account: string): string =>
  `choose one in the Cloudflare dashboard (Workers & Pages: the first visit asks for it), or PUT /accounts/${account}/workers/subdomain {"subdomain":"NAME"} with an API token; then deploy again`;

/** One GET of the Cloudflare API: its result, or null with the API's errors when it refused. */
const get = async (base: string, path: string, token: string): Promise<{ ok: true; result: unknown } | { ok: false; why: string }> => {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  const body = EnvelopeSchema.parse(await response.json());
  return body.success ? { ok: true, result: body.result } : { ok: false, why: body.errors.map((e) => `${e.code} ${e.message}`).join('; ') || String(response.status) };
};

const accountId = async (base: string, token: string, env: NodeJS.ProcessEnv): Promise<string> => {
  if (env.CLOUDFLARE_ACCOUNT_ID) return env.CLOUDFLARE_ACCOUNT_ID;
  const listed = await get(base, '/accounts', token);
  const accounts = listed.ok ? AccountsSchema.parse(listed.result) : [];
  if (accounts.length !== 1) throw new Error(`the credentials reach ${accounts.length} accounts: set CLOUDFLARE_ACCOUNT_ID to the one to deploy to`);
  return accounts[0]!.id;
};

/** The account's workers.dev subdomain; throws, saying how to choose one, when the account has none. */
export const workersSubdomain = async (wrangler: Wrangler, env: NodeJS.ProcessEnv): Promise<string> => {
  const token = env.CLOUDFLARE_API_TOKEN || TokenSchema.parse(JSON.parse(await required(wrangler, ['auth', 'token', '--json']))).token;
  const base = env.CLOUDFLARE_API_BASE_URL || API;
  const account = await accountId(base, token, env);
  const found = await get(base, `/accounts/${account}/workers/subdomain`, token);
  const subdomain = found.ok ? SubdomainSchema.safeParse(found.result) : null;
  if (!subdomain?.success) {
    throw new Error(`the account has no workers.dev subdomain${found.ok ? '' : ` (${found.why})`}, on which the Worker is published: ${howToEnable(account)}. Nothing was created.`);
  }
  return subdomain.data.subdomain;
};
