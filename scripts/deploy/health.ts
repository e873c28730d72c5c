// The deployed Worker's health check: GET /v1/health on the URL wrangler deployed to, until it answers
// {"status":"ok"} from the commit just deployed (a new deployment takes some seconds to reach every location, and
// the previous version answers meanwhile) or the patience runs out.
import { setTimeout as sleep } from 'node:timers/promises';
import { HealthSchema } from '../../src/api/index.ts';

/**
 * Tests only: the origin that stands in for the deployed workers.dev URL (a scripted API cannot route
 * *.workers.dev to 127.0.0.1); its path and query are kept.
 */
export const HEALTH_ORIGIN_OVERRIDE = 'TAU2_EDGE_DEPLOY_HEALTH_ORIGIN';

/** The workers.dev URL in wrangler deploy's output, or null. */
export const deployedUrl = (deployOutput: string): string | null => deployOutput.match(/https:\/\/[a-z0-9.-]+\.workers\.dev/)?.[0] ?? null;

export const healthUrl = (deployed: string, env: NodeJS.ProcessEnv = process.env): string => {
  const url = new URL('/v1/health', deployed);
  const override = env[HEALTH_ORIGIN_OVERRIDE];
  return override ? new URL(url.pathname, override).href : url.href;
};

/** What to look at when a Worker that was deployed does not answer its health check. */
const whatToCheck = (url: string, last: string): string =>
  [
    /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|timeout|aborted/i.test(last)
      ? `- the URL is not reachable yet: a new workers.dev subdomain takes minutes to resolve; try \`curl ${url}\` again shortly`
      : /"status":"ok"/.test(last)
        ? '- the Worker answers from another commit: the new version is still reaching every location, or another deploy replaced it'
        : '- the Worker answers, but not {"status":"ok"}: its answer is above',
    '- the Worker’s own errors: `npx wrangler tail` while requesting the URL, or the Worker’s logs in the Cloudflare dashboard',
    '- the Worker’s route: Settings → Domains & Routes shows whether workers.dev is enabled for it',
  ].join('\n');

/**
 * Resolves once the URL answers 200 {"status":"ok"} from `commit` (any commit when not given), asking every
 * `intervalMs`; after `patienceMs`, throws with the last answer, saying that the code is deployed (the check runs
 * after the upload) and what to look at.
 */
export const checkHealth = async (url: string, patienceMs = 60_000, commit?: string, intervalMs = 1_000): Promise<void> => {
  const deadline = Date.now() + patienceMs;
  let last = '';
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      const body = await response.text();
      const health = response.ok ? HealthSchema.safeParse(JSON.parse(body)) : null;
      if (health?.success && (commit === undefined || health.data.commit === commit)) return;
      last = `${response.status} ${body.slice(0, 200)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `the Worker was deployed, but GET ${url} did not answer {"status":"ok"} (last: ${last}) in ${Math.round(patienceMs / 1000)} s. The code is uploaded and live; deploying again is not needed. Check:\n${whatToCheck(url, last)}`,
      );
    }
    await sleep(intervalMs);
  }
};
