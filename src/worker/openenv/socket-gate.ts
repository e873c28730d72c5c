// The cap on a tenant's open OpenEnv sockets (LIMIT_MAX_SOCKETS_PER_TENANT): each socket holds a lease of its
// tenant's gate (the lease gate of runs/provider-gate.ts, under a name no provider endpoint can have) from the
// upgrade until it closes. A lease lapses unless renewed, so a socket whose object vanished without its close
// frees its place; an open socket's object renews it on an alarm, well within the lapse.
import { LEASE_TTL_MS } from '../runs/provider-gate.ts';
import { limits } from '../tenancy/limits.ts';

/** How often an open socket's object renews its lease. */
export const SOCKET_LEASE_RENEW_MS = LEASE_TTL_MS / 3;

/** The gate of a tenant's sockets: a URL's host never holds a `/`, so no provider's gate shares its name. */
const socketGate = (env: Env, tenant: string) => env.PROVIDER_GATE.getByName(`openenv-sockets/${tenant}`);

/** Takes (or renews) the socket's place among its tenant's; false when the tenant has as many open as allowed. */
export const holdSocket = async (env: Env, tenant: string, sessionId: string): Promise<boolean> =>
  socketGate(env, tenant).acquire(sessionId, limits(env).LIMIT_MAX_SOCKETS_PER_TENANT);

export const releaseSocket = async (env: Env, tenant: string, sessionId: string): Promise<void> => socketGate(env, tenant).release(sessionId);
