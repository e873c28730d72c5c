// The fan-out of one run: a Durable Object that keeps the run's episodes (pending, running, done, cancelled),
// starts at most `max_concurrency` of them at a time, starts the next one as each finishes, and marks the run
// completed in D1 when none is left.
import { DurableObject } from 'cloudflare:workers';
import { encodeLaunch, episodeKey } from '../episode/launch.ts';
import type { EpisodeRef } from '../episode/launch.ts';
import { decodeConfig, setRunStatus } from '../db/runs.ts';

export type EpisodeStatus = 'pending' | 'running' | 'done' | 'cancelled';

export interface RunProgress {
  readonly pending: number;
  readonly running: number;
  readonly cancelled: number;
}

export class RunDO extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS episodes (
         key TEXT PRIMARY KEY, ord INTEGER NOT NULL, task_id TEXT NOT NULL, trial INTEGER NOT NULL, status TEXT NOT NULL)`,
    );
  }

  /** Records the run's episodes (in work-unit order) and starts the first ones; a repeated start adds nothing. */
  async start(runId: string, configText: string, episodes: readonly EpisodeRef[]): Promise<void> {
    if ((await this.runId()) === null) {
      episodes.forEach((ref, ord) =>
        this.ctx.storage.sql.exec(
          `INSERT INTO episodes (key, ord, task_id, trial, status) VALUES (?, ?, ?, ?, 'pending')`,
          episodeKey(runId, ref), ord, ref.task_id, ref.trial,
        ),
      );
      await this.ctx.storage.put({ run_id: runId, config: configText });
    }
    await this.fill();
  }

  /** Whether the run's episodes were recorded (a launch cut short before this leaves an orphan run). */
  async isStarted(): Promise<boolean> {
    return (await this.runId()) !== null;
  }

  async episodeFinished(key: string): Promise<void> {
    this.ctx.storage.sql.exec(`UPDATE episodes SET status = 'done' WHERE key = ? AND status = 'running'`, key);
    await this.fill();
  }

  /** Stops pending and running episodes; finished ones keep their simulations. */
  async cancel(): Promise<void> {
    const runId = await this.runId();
    if (runId === null) return;
    this.ctx.storage.sql.exec(`UPDATE episodes SET status = 'cancelled' WHERE status = 'pending'`);
    for (const { key } of this.ctx.storage.sql.exec<{ key: string }>(`SELECT key FROM episodes WHERE status = 'running'`).toArray()) {
      const stopped = await this.env.EPISODE.getByName(key).cancel();
      this.ctx.storage.sql.exec(`UPDATE episodes SET status = ? WHERE key = ?`, stopped ? 'cancelled' : 'done', key);
    }
    await setRunStatus(this.env.DB, runId, 'cancelled', 'running');
  }

  /** Launches the given finished episodes again (their simulations were removed from D1). */
  async rerun(episodes: readonly EpisodeRef[]): Promise<void> {
    const runId = await this.runId();
    if (runId === null) return;
    for (const ref of episodes) {
      const key = episodeKey(runId, ref);
      await this.env.EPISODE.getByName(key).reset();
      this.ctx.storage.sql.exec(`UPDATE episodes SET status = 'pending' WHERE key = ?`, key);
    }
    await setRunStatus(this.env.DB, runId, 'running');
    await this.fill();
  }

  progress(): RunProgress {
    const count = (status: EpisodeStatus) =>
      this.ctx.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM episodes WHERE status = ?`, status).one().n;
    return { pending: count('pending'), running: count('running'), cancelled: count('cancelled') };
  }

  /** Starts pending episodes up to the run's concurrency; completes the run when nothing is left. */
  private async fill(): Promise<void> {
    const runId = await this.runId();
    const configText = await this.ctx.storage.get<string>('config');
    if (runId === null || configText === undefined) return;
    const config = decodeConfig(configText);
    const { pending, running } = this.progress();
    if (pending === 0 && running === 0) {
      await setRunStatus(this.env.DB, runId, 'completed', 'running');
      return;
    }
    const free = config.max_concurrency - running;
    if (free <= 0) return;
    const next = this.ctx.storage.sql
      .exec<{ key: string; task_id: string; trial: number }>(
        `SELECT key, task_id, trial FROM episodes WHERE status = 'pending' ORDER BY ord LIMIT ?`,
        free,
      )
      .toArray();
    for (const row of next) this.ctx.storage.sql.exec(`UPDATE episodes SET status = 'running' WHERE key = ?`, row.key);
    await Promise.all(
      next.map(async (row) => {
        try {
          await this.env.EPISODE.getByName(row.key).start(encodeLaunch({ run_id: runId, config, task_id: row.task_id, trial: row.trial }));
        } catch (error) {
          // Back to pending, so the next fill (the caller's retry) starts it.
          this.ctx.storage.sql.exec(`UPDATE episodes SET status = 'pending' WHERE key = ? AND status = 'running'`, row.key);
          throw error;
        }
      }),
    );
  }

  private async runId(): Promise<string | null> {
    return (await this.ctx.storage.get<string>('run_id')) ?? null;
  }
}
