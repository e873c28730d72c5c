// The fan-out of one run: a Durable Object that keeps the run's episodes (pending, running, done, cancelled),
// starts at most `max_concurrency` of them at a time, starts the next one as each finishes, and marks the run
// completed in D1 when none is left. Counts per status are kept beside the rows, changed in the same
// synchronous section as each status change, so progress needs no scan.
import { DurableObject } from 'cloudflare:workers';
import { encodeLaunch, episodeKey } from '../episode/launch.ts';
import type { EpisodeRef } from '../episode/launch.ts';
import { decodeConfig, setRunStatus } from '../db/runs.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { dayStart, usdSpentSince } from '../db/quotas.ts';

/** The tenant's daily USD budget as it stood when the run was launched: reaching it stops the run. */
export interface RunBudget {
  readonly tenant: string;
  readonly usdPerDay: number;
}

export type EpisodeStatus = 'pending' | 'running' | 'done' | 'cancelled';

export type RunEpisode = {
  readonly key: string;
  /** Its position in the run (work-unit order, from 0). */
  readonly ord: number;
  readonly task_id: string;
  readonly trial: number;
  readonly status: EpisodeStatus;
};

export interface RunProgress {
  readonly pending: number;
  readonly running: number;
  readonly cancelled: number;
}

/** How often a run with episodes in flight makes sure each of them was really started. */
export const RECOVERY_MS = 30_000;

/** What a run object keeps from its start. */
interface RecordedRun {
  readonly runId: string;
  readonly configText: string;
  readonly config: RunConfig;
  /** `operator` for runs recorded before runs had tenants. */
  readonly tenant: string;
  readonly budget: RunBudget | null;
}

export class RunDO extends DurableObject<Env> {
  /** Episodes per status, read from the table once per instance. */
  private readonly counts: Record<EpisodeStatus, number>;
  /** What the run was started with (it never changes), read and decoded once per instance. */
  private recorded: RecordedRun | null = null;
  /** Whether the recovery alarm is armed (null: not known to this instance yet). */
  private recoveryArmed: boolean | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS episodes (
         key TEXT PRIMARY KEY, ord INTEGER NOT NULL, task_id TEXT NOT NULL, trial INTEGER NOT NULL, status TEXT NOT NULL)`,
    );
    ctx.storage.sql.exec(`CREATE INDEX IF NOT EXISTS episodes_status_ord ON episodes (status, ord)`);
    this.counts = { pending: 0, running: 0, done: 0, cancelled: 0 };
    for (const row of ctx.storage.sql.exec<{ status: EpisodeStatus; n: number }>(`SELECT status, count(*) AS n FROM episodes GROUP BY status`)) {
      this.counts[row.status] = row.n;
    }
  }

  /** Moves the episode `key` from status `from` (any, when omitted) to `to`; returns whether it moved. */
  private move(key: string, to: EpisodeStatus, from?: EpisodeStatus): boolean {
    const current = from ?? this.statusOf(key);
    if (current === undefined || current === to) return false;
    // One statement when the caller knows the status (each finished episode moves twice): it changes only from that one.
    const moved = this.ctx.storage.sql.exec(`UPDATE episodes SET status = ? WHERE key = ? AND status = ?`, to, key, current).rowsWritten > 0;
    if (moved) {
      this.counts[current]--;
      this.counts[to]++;
    }
    return moved;
  }

  private statusOf(key: string): EpisodeStatus | undefined {
    return this.ctx.storage.sql.exec<{ status: EpisodeStatus }>(`SELECT status FROM episodes WHERE key = ?`, key).toArray()[0]?.status;
  }

  /** Records the run's episodes (in work-unit order) for `tenant` and starts the first ones; a repeated start adds nothing. */
  async start(runId: string, configText: string, episodes: readonly EpisodeRef[], tenant: string, budget: RunBudget | null = null): Promise<void> {
    if ((await this.run()) === null) {
      episodes.forEach((ref, ord) =>
        this.ctx.storage.sql.exec(
          `INSERT INTO episodes (key, ord, task_id, trial, status) VALUES (?, ?, ?, ?, 'pending')`,
          episodeKey(runId, ref), ord, ref.task_id, ref.trial,
        ),
      );
      this.counts.pending += episodes.length;
      await this.ctx.storage.put({ run_id: runId, config: configText, tenant, ...(budget === null ? {} : { budget }) });
    }
    await this.fill();
  }

  /** Whether the run's episodes were recorded (a launch cut short before this leaves an orphan run). */
  async isStarted(): Promise<boolean> {
    return (await this.run()) !== null;
  }

  async episodeFinished(key: string): Promise<void> {
    this.move(key, 'done', 'running');
    await this.fill();
  }

  /** Stops pending and running episodes (saying why, when told); finished ones keep their simulations. */
  async cancel(reason?: string): Promise<void> {
    const runId = (await this.run())?.runId ?? null;
    if (runId === null) return;
    this.ctx.storage.sql.exec(`UPDATE episodes SET status = 'cancelled' WHERE status = 'pending'`);
    this.counts.cancelled += this.counts.pending;
    this.counts.pending = 0;
    for (const { key } of this.ctx.storage.sql.exec<{ key: string }>(`SELECT key FROM episodes WHERE status = 'running'`).toArray()) {
      const stopped = await this.env.EPISODE.getByName(key).cancel();
      this.move(key, stopped ? 'cancelled' : 'done');
    }
    await setRunStatus(this.env.DB, runId, 'cancelled', 'running', reason);
  }

  /** Launches the given finished episodes again (their simulations were removed from D1). */
  async rerun(episodes: readonly EpisodeRef[]): Promise<void> {
    const runId = (await this.run())?.runId ?? null;
    if (runId === null) return;
    for (const ref of episodes) {
      const key = episodeKey(runId, ref);
      await this.env.EPISODE.getByName(key).reset();
      this.move(key, 'pending');
    }
    await setRunStatus(this.env.DB, runId, 'running');
    await this.fill();
  }

  /** The run's episodes in work-unit order, `limit` after position `after`, of one status when given. */
  episodes(after: number, limit: number, status?: EpisodeStatus): RunEpisode[] {
    const filter = status === undefined ? '' : 'AND status = ?';
    return this.ctx.storage.sql
      .exec<RunEpisode>(
        `SELECT key, ord, task_id, trial, status FROM episodes WHERE ord > ? ${filter} ORDER BY ord LIMIT ?`,
        ...(status === undefined ? [after, limit] : [after, status, limit]),
      )
      .toArray();
  }

  progress(): RunProgress {
    return { pending: this.counts.pending, running: this.counts.running, cancelled: this.counts.cancelled };
  }

  /**
   * The fan-out's own recovery: an episode marked running whose start never reached it (both objects were
   * reset in between) is started again — starting is idempotent, so episodes already going are not touched.
   */
  override async alarm(): Promise<void> {
    this.recoveryArmed = false;
    const run = await this.run();
    if (run === null) return;
    const running = this.ctx.storage.sql
      .exec<{ key: string; task_id: string; trial: number }>(`SELECT key, task_id, trial FROM episodes WHERE status = 'running'`)
      .toArray();
    await Promise.all(
      running.map((row) => this.env.EPISODE.getByName(row.key).start(launchOf(run, row))),
    );
    await this.fill();
  }

  /** Starts pending episodes up to the run's concurrency; completes the run when nothing is left. */
  private async fill(): Promise<void> {
    const run = await this.run();
    if (run === null) return;
    const { pending, running } = this.counts;
    if (pending === 0 && running === 0) {
      await this.ctx.storage.deleteAlarm();
      this.recoveryArmed = false;
      await setRunStatus(this.env.DB, run.runId, 'completed', 'running');
      return;
    }
    this.recoveryArmed ??= (await this.ctx.storage.getAlarm()) !== null;
    if (!this.recoveryArmed) {
      await this.ctx.storage.setAlarm(Date.now() + RECOVERY_MS);
      this.recoveryArmed = true;
    }
    const free = run.config.max_concurrency - running;
    if (free <= 0) return;
    if (await this.overBudget(run.budget)) return this.cancel('Quota usd_per_day reached: the tenant\'s daily USD budget is spent');
    const next = this.ctx.storage.sql
      .exec<{ key: string; task_id: string; trial: number }>(
        `SELECT key, task_id, trial FROM episodes WHERE status = 'pending' ORDER BY ord LIMIT ?`,
        free,
      )
      .toArray();
    for (const row of next) this.move(row.key, 'running', 'pending');
    await Promise.all(
      next.map(async (row) => {
        try {
          await this.env.EPISODE.getByName(row.key).start(launchOf(run, row));
        } catch (error) {
          // Back to pending, so the next fill (the caller's retry) starts it.
          this.move(row.key, 'pending', 'running');
          throw error;
        }
      }),
    );
  }

  /** Whether the tenant has spent its daily USD budget (runs launched without one never are). */
  private async overBudget(budget: RunBudget | null): Promise<boolean> {
    if (budget === null) return false;
    return (await usdSpentSince(this.env.DB, budget.tenant, dayStart(Date.now()))) >= budget.usdPerDay;
  }

  /** The run as started, or null before `start` recorded it. */
  private async run(): Promise<RecordedRun | null> {
    if (this.recorded === null) {
      const values = await this.ctx.storage.get<string | RunBudget>(['run_id', 'config', 'tenant', 'budget']);
      const runId = values.get('run_id') as string | undefined;
      const configText = values.get('config') as string | undefined;
      if (runId === undefined || configText === undefined) return null;
      const budget = values.get('budget') as RunBudget | undefined;
      const tenant = (values.get('tenant') as string | undefined) ?? 'operator';
      this.recorded = { runId, configText, config: decodeConfig(configText), tenant, budget: budget ?? null };
    }
    return this.recorded;
  }
}

/** The launch of one of the run's episodes. */
const launchOf = (run: RecordedRun, row: { task_id: string; trial: number }): string =>
  encodeLaunch({ run_id: run.runId, config: run.configText, task_id: row.task_id, trial: row.trial, tenant: run.tenant });
