// The per-provider cap shared by all runs: a Durable Object per provider endpoint hands out at most `cap`
// leases at once. A lease expires on its own, so an episode evicted while holding one cannot leak it.
import { DurableObject } from 'cloudflare:workers';

export const LEASE_TTL_MS = 5 * 60_000;

export class ProviderGateDO extends DurableObject<Env> {
  private leases(): Map<string, number> {
    const now = Date.now();
    const rows = this.ctx.storage.sql.exec<{ holder: string; expires_at: number }>('SELECT holder, expires_at FROM leases').toArray();
    this.ctx.storage.sql.exec('DELETE FROM leases WHERE expires_at <= ?', now);
    return new Map(rows.filter((r) => r.expires_at > now).map((r) => [r.holder, r.expires_at]));
  }

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS leases (holder TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)');
  }

  /** Grants (or renews) `holder`'s lease unless `cap` other holders already have one. */
  acquire(holder: string, cap: number): boolean {
    const leases = this.leases();
    if (!leases.has(holder) && leases.size >= cap) return false;
    this.ctx.storage.sql.exec('INSERT OR REPLACE INTO leases (holder, expires_at) VALUES (?, ?)', holder, Date.now() + LEASE_TTL_MS);
    return true;
  }

  release(holder: string): void {
    this.ctx.storage.sql.exec('DELETE FROM leases WHERE holder = ?', holder);
  }

  inFlight(): number {
    return this.leases().size;
  }
}

/** The gate of the configured provider and its cap. */
export const providerGate = (env: Env) => ({
  stub: env.PROVIDER_GATE.getByName(new URL(env.OPENAI_BASE_URL).host),
  cap: Math.max(1, Number.parseInt(env.PROVIDER_MAX_CONCURRENCY, 10) || 1),
});
