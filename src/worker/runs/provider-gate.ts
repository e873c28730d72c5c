// The per-provider cap shared by all runs: one Durable Object per provider endpoint hands out at most `cap`
// leases at once. Leases live in memory, so granting and releasing touch no table scan; each is also written
// by key to storage, only so that a restarted gate still counts the calls in flight. A lease expires on its
// own, so a producer that died holding one cannot leak it. Waiters are served first come, first served.
// The gate also counts each run's calls in flight (a lease's holder starts with its run's id) and their peak,
// so a run can say how many of its model calls ran at once. The same gate, under a tenant's name, caps that
// tenant's open OpenEnv sockets (openenv/socket-gate.ts).
import { DurableObject } from 'cloudflare:workers';
import { operatorApiRoot } from '../../core/llm/providers.ts';
import { noteObjectLoaded } from '../live-objects.ts';

export const LEASE_TTL_MS = 5 * 60_000;
/** How long `acquire` waits for a free slot before answering false (the caller asks again). */
export const ACQUIRE_WAIT_MS = 10_000;
/** Runs whose peak a gate remembers (the oldest is forgotten first). */
const REMEMBERED_RUNS = 1_000;

interface Waiter {
  readonly holder: string;
  readonly cap: number;
  readonly grant: (granted: boolean) => void;
}

export class ProviderGateDO extends DurableObject<Env> {
  private readonly leases = new Map<string, number>();
  private readonly waiters: Waiter[] = [];
  /** Per run: its leases now and their peak, since this instance started. */
  private readonly runs = new Map<string, { now: number; peak: number }>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    noteObjectLoaded(ctx.id);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS leases (holder TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)');
    for (const row of ctx.storage.sql.exec<{ holder: string; expires_at: number }>('SELECT holder, expires_at FROM leases')) {
      this.leases.set(row.holder, row.expires_at);
    }
  }

  /**
   * Grants (or renews) `holder`'s lease unless `cap` other holders have one; with `waitMs`, waits that long
   * for a slot to free before answering false.
   */
  acquire(holder: string, cap: number, waitMs = 0): boolean | Promise<boolean> {
    if (this.tryGrant(holder, cap)) return true;
    if (waitMs <= 0) return false;
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = { holder, cap, grant: resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        resolve(false);
      }, waitMs);
    });
  }

  release(holder: string): void {
    if (!this.leases.delete(holder)) return;
    this.countRun(holder, -1);
    this.ctx.storage.sql.exec('DELETE FROM leases WHERE holder = ?', holder);
    while (this.waiters.length > 0 && this.tryGrant(this.waiters[0]!.holder, this.waiters[0]!.cap)) this.waiters.shift()!.grant(true);
  }

  inFlight(): number {
    this.dropExpired();
    return this.leases.size;
  }

  /** The most calls of run `runId` in flight at once, as far as this instance saw (null: none seen). */
  runPeak(runId: string): number | null {
    return this.runs.get(runId)?.peak ?? null;
  }

  private countRun(holder: string, delta: 1 | -1): void {
    const at = holder.indexOf('/');
    if (at < 0) return;
    const runId = holder.slice(0, at);
    const run = this.runs.get(runId) ?? { now: 0, peak: 0 };
    run.now = Math.max(0, run.now + delta);
    run.peak = Math.max(run.peak, run.now);
    this.runs.delete(runId);
    this.runs.set(runId, run);
    if (this.runs.size > REMEMBERED_RUNS) this.runs.delete(this.runs.keys().next().value!);
  }

  private tryGrant(holder: string, cap: number): boolean {
    if (!this.leases.has(holder) && this.leases.size >= cap) {
      this.dropExpired();
      if (this.leases.size >= cap) return false;
    }
    const expiresAt = Date.now() + LEASE_TTL_MS;
    if (!this.leases.has(holder)) this.countRun(holder, 1);
    this.leases.set(holder, expiresAt);
    this.ctx.storage.sql.exec('INSERT OR REPLACE INTO leases (holder, expires_at) VALUES (?, ?)', holder, expiresAt);
    return true;
  }

  private dropExpired(): void {
    const now = Date.now();
    for (const [holder, expiresAt] of this.leases) {
      if (expiresAt > now) continue;
      this.leases.delete(holder);
      this.countRun(holder, -1);
      this.ctx.storage.sql.exec('DELETE FROM leases WHERE holder = ?', holder);
    }
  }
}

/** The identity of a provider endpoint: its host (the gate's name). */
export const endpointOf = (baseURL: string): string => new URL(baseURL).host;

/** The gate of a provider endpoint and the cap every endpoint gets. */
export const providerGate = (env: Env, endpoint: string = endpointOf(operatorApiRoot(env, 'openai'))) => ({
  stub: env.PROVIDER_GATE.getByName(endpoint),
  cap: Math.max(1, Number.parseInt(env.PROVIDER_MAX_CONCURRENCY, 10) || 1),
});
