// Outbound calls (providers, agent endpoints, embeddings, rerankers) never follow a redirect: a 3xx would carry
// the call, with its key or sealed headers, to an address the endpoint rules never checked. A redirect is an
// infrastructure error that names the status and the Location; no retry changes where the server points.
import { InfraError } from './types.ts';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_LOCATION_CHARS = 300;

/** `base` (the global fetch by default, looked up per call) with `redirect: 'manual'` and redirects refused. */
export const withoutRedirects =
  (base?: typeof fetch): typeof fetch =>
  async (input, init) => {
    const response = await (base ?? fetch)(input, { ...init, redirect: 'manual' });
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    await response.body?.cancel();
    const location = response.headers.get('location');
    const shown = location === null ? 'no Location' : `Location ${location.slice(0, MAX_LOCATION_CHARS)}`;
    throw new InfraError(`HTTP ${response.status} redirect refused (${shown}): calls do not follow redirects`, { retryable: false });
  };
