// The fan-out of one run: a Durable Object that keeps the run's episodes (pending, running, done, cancelled),
// starts at most `max_concurrency` of them at a time, starts the next one as each finishes, and marks the run
// completed in D1 when none is left. Counts per status are kept beside the rows, changed in the same
// synchronous section as each status change, so progress needs no scan. The run's alarm checks on its running
// episodes while any needs it: an episode that watches itself (one with an external participant) is checked
// only until its start is known to have reached it, so an open episode waiting for its client wakes nothing.
// A finished episode hands its simulation's rows here: they are stored in the object (so the episode can
// forget them) and written to D1 in batches, one D1 call for many simulations: D1 is the one database every
// run of every tenant writes to. A run's status changes only once all of its simulations are written.
import { DurableObject } from 'cloudflare:workers';
import pLimit from 'p-limit';
import { encodeLaunch, episodeKey } from '../episode/launch.ts';
import type { EpisodeWatch } from '../episode/episode-do.ts';
import type { StoredRows } from '../episode/store.ts';
import type { EpisodeRef } from '../episode/launch.ts';
import { decodeConfig, setRunStatus } from '../db/runs.ts';
import type { RunConfig } from '../../core/schemas/run-config.ts';
import { budgetSpent } from '../tenancy/budget.ts';
import type { RunBudget } from '../tenancy/budget.ts';
import { writeSimulations } from '../db/simulations.ts';
import { chunksOfSize } from '../db/chunks.ts';
import type { SimulationRows } from '../db/simulations.ts';
import { infraErrorOf, refusalWatch, stoppedBy } from '../../core/runner/refusal.ts';
import { SimulationRunSchema } from '../../core/schemas/simulation.ts';
import { parsePyJson } from '../../core/py/index.ts';
import { noteObjectLoaded } from '../live-objects.ts';
import { BUDGET_REFUSAL, isBudgetRefusalText } from '../../core/llm/budget.ts';

/** Why a run was stopped by its tenant's budget. */
const BUDGET_SPENT = `${BUDGET_REFUSAL}: the tenant's daily USD budget is spent`;
import { nextRound } from './rounds.ts';

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

/**
 * How often a run with episodes in flight checks on each: that it was really started, and that a turn it asked
 * for long ago was not lost (see EpisodeDO's `checkOn`).
 */
export const RECOVERY_MS = 15_000;
/** Simulations written to D1 in one call at most, and how long a finished one waits for others to join it. */
const WRITE_BATCH = 32;
const WRITE_DELAY_MS = 100;
/** Text of the simulations written in one call at most (at least one is written, whatever its size). */
const WRITE_BATCH_CHARS = 2_000_000;

/** What a run object keeps from its start. */
interface RecordedRun {
  readonly runId: string;
  readonly configText: string;
  readonly config: RunConfig;
  /** `operator` for runs recorded before runs had tenants. */
  readonly tenant: string;
  readonly budget: RunBudget | null;
  /** A fork group's starting rows, which each of its episodes starts with (stored as JSON text, parsed once here). */
  readonly forkState: StoredRows | null;
}

export class RunDO extends DurableObject<Env> {
  /** Episodes per status, read from the table once per instance. */
  private readonly counts: Record<EpisodeStatus, number>;
  /** What the run was started with (it never changes), read and decoded once per instance. */
  private recorded: RecordedRun | null = null;
  /** Whether the recovery alarm is armed (null: not known to this instance yet). */
  private recoveryArmed: boolean | null = null;
  /** Whether any episode was found to watch itself (else every running one is the run's to check, and no query says so). */
  private anySelfWatched: boolean;
  /** Simulations stored here and not yet in D1, read from the table once per instance. */
  private unwritten: number;
  private writeTimer: ReturnType<typeof setTimeout> | null = null;
  /** Writes to D1 run one at a time: each writes what is stored when it starts. */
  private readonly oneWrite = pLimit(1);
  /** The provider refusals among the simulations finished since this instance started (see core/runner/refusal.ts). */
  private readonly refusals = refusalWatch();
  /** Rounds are added one at a time: a second finished fill sees the first one's episodes. */
  private readonly oneRound = pLimit(1);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    noteObjectLoaded(ctx.id);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS episodes (
         key TEXT PRIMARY KEY, ord INTEGER NOT NULL, task_id TEXT NOT NULL, trial INTEGER NOT NULL, status TEXT NOT NULL)`,
    );
    ctx.storage.sql.exec(`CREATE INDEX IF NOT EXISTS episodes_status_ord ON episodes (status, ord)`);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS unwritten (seq INTEGER PRIMARY KEY AUTOINCREMENT, rows TEXT NOT NULL)`);
    // Episodes whose start reached them and that watch themselves (see EpisodeDO's `watch`).
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS self_watched (key TEXT PRIMARY KEY)`);
    this.anySelfWatched = ctx.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM self_watched`).one().n > 0;
    this.unwritten = ctx.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM unwritten`).one().n;
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
  async start(runId: string, configText: string, episodes: readonly EpisodeRef[], tenant: string, budget: RunBudget | null = null, forkState: string | null = null): Promise<void> {
    if ((await this.run()) === null) {
      this.addPending(runId, episodes);
      await this.ctx.storage.put({ run_id: runId, config: configText, tenant, ...(budget === null ? {} : { budget }), ...(forkState === null ? {} : { fork_state: forkState }) });
    }
    await this.fill();
  }

  /** Records `episodes` as pending, after those the run has. */
  private addPending(runId: string, episodes: readonly EpisodeRef[]): void {
    const first = this.ctx.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM episodes`).one().n;
    episodes.forEach((ref, i) =>
      this.ctx.storage.sql.exec(
        `INSERT INTO episodes (key, ord, task_id, trial, status) VALUES (?, ?, ?, ?, 'pending')`,
        episodeKey(runId, ref), first + i, ref.task_id, ref.trial,
      ),
    );
    this.counts.pending += episodes.length;
  }

  /**
   * A run adding trials in rounds gets its next round when all of its episodes have finished (see rounds.ts);
   * returns whether it has episodes to run.
   */
  private async addRound(run: RecordedRun): Promise<boolean> {
    if (this.counts.pending + this.counts.running > 0) return true;
    const tasks = this.ctx.storage.sql.exec<{ task_id: string }>(`SELECT task_id FROM episodes GROUP BY task_id ORDER BY min(ord)`).toArray();
    const round = await nextRound(this.env, run.runId, tasks.map((t) => t.task_id));
    if (round === null) return false;
    await this.ctx.storage.put('config', round.configText);
    this.recorded = { ...run, configText: round.configText, config: decodeConfig(round.configText) };
    this.addPending(run.runId, round.episodes);
    return true;
  }

  /** Whether the run's episodes were recorded (a launch cut short before this leaves an orphan run). */
  async isStarted(): Promise<boolean> {
    return (await this.run()) !== null;
  }

  /**
   * Takes note that episode `key` finished, with its simulation's rows (as JSON text; none from an episode that
   * wrote them to D1 itself, as episodes did before runs wrote them). Once this returns, the rows are stored
   * here; a repeated call for an episode already done stores nothing.
   */
  async episodeFinished(key: string, rowsText?: string): Promise<void> {
    let refusal: string | null = null;
    let budgetSpent = false;
    if (this.move(key, 'done', 'running') && rowsText !== undefined) {
      this.ctx.storage.sql.exec(`INSERT INTO unwritten (rows) VALUES (?)`, rowsText);
      this.unwritten++;
      const [taskId, infraError] = finishedOf(rowsText);
      budgetSpent = infraError !== null && isBudgetRefusalText(infraError);
      refusal = this.refusals.note(taskId, infraError);
    }
    // An episode ended by the budget refusing one of its model calls (recorded as an infrastructure error, to be
    // re-run once there is budget): the run stops, saying why, and so do its other episodes.
    if (budgetSpent) return this.cancel(BUDGET_SPENT);
    // A refusal every task would meet (a bad key, an unknown model) stops the run: its other episodes would only repeat it.
    if (refusal !== null && this.counts.pending + this.counts.running > 0) return this.stop('failed', stoppedBy(refusal));
    // A run under a budget writes each simulation at once: its spend, read from D1, must count them all.
    if (this.unwritten >= WRITE_BATCH || (await this.run())?.budget) await this.writeUnwritten();
    else this.writeSoon();
    await this.fill();
  }

  /** Writes the stored simulations after a short wait, so that those finishing meanwhile share the call. */
  private writeSoon(): void {
    if (this.unwritten === 0 || this.writeTimer !== null) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = null;
      void this.writeUnwritten();
    }, WRITE_DELAY_MS);
  }

  /**
   * Writes every stored simulation to D1, a batch per call, and forgets each batch once written; returns
   * whether none is left. A failed write leaves its batch stored for the next try (the recovery alarm's at
   * the latest).
   */
  private writeUnwritten(): Promise<boolean> {
    return this.oneWrite(async () => {
      while (this.unwritten > 0) {
        const stored = this.ctx.storage.sql.exec<{ seq: number; rows: string }>(`SELECT seq, rows FROM unwritten ORDER BY seq LIMIT ?`, WRITE_BATCH).toArray();
        const batch = chunksOfSize(stored, (row) => row.rows.length, WRITE_BATCH_CHARS)[0]!;
        try {
          await writeSimulations(this.env.DB, batch.map((row) => JSON.parse(row.rows) as SimulationRows));
        } catch (error) {
          console.warn(`run simulations not written yet: ${error instanceof Error ? error.message : String(error)}`);
          return false;
        }
        this.ctx.storage.sql.exec(`DELETE FROM unwritten WHERE seq <= ?`, batch.at(-1)!.seq);
        this.unwritten -= batch.length;
      }
      return true;
    });
  }

  /** Stops pending and running episodes (saying why, when told); finished ones keep their simulations. */
  cancel(reason?: string): Promise<void> {
    return this.stop('cancelled', reason);
  }

  /** Stops pending and running episodes and gives the run its final status; finished ones keep their simulations. */
  private async stop(status: 'cancelled' | 'failed', reason?: string): Promise<void> {
    const runId = (await this.run())?.runId ?? null;
    if (runId === null) return;
    this.ctx.storage.sql.exec(`UPDATE episodes SET status = 'cancelled' WHERE status = 'pending'`);
    this.counts.cancelled += this.counts.pending;
    this.counts.pending = 0;
    for (const { key } of this.ctx.storage.sql.exec<{ key: string }>(`SELECT key FROM episodes WHERE status = 'running'`).toArray()) {
      const stopped = await this.env.EPISODE.getByName(key).cancel();
      this.move(key, stopped ? 'cancelled' : 'done');
    }
    // Its finished simulations are written before its status says it stopped; what fails is written by the alarm.
    if (!(await this.writeUnwritten())) await this.armRecovery();
    await setRunStatus(this.env.DB, runId, status, 'running', reason);
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

  /** Episodes pending, running and cancelled (a finished one counts in D1's `done` once its simulation is written). */
  progress(): RunProgress {
    return { pending: this.counts.pending, running: this.counts.running, cancelled: this.counts.cancelled };
  }

  /**
   * The fan-out's own recovery: an episode marked running whose start never reached it (both objects were
   * reset in between) is started again; starting one already going is the check on it, which asks again for a
   * turn lost in a crash. One failing check does not hold up the others (the next alarm tries it again).
   */
  override async alarm(): Promise<void> {
    this.recoveryArmed = false;
    const run = await this.run();
    if (run === null) return;
    if (!(await this.writeUnwritten())) await this.armRecovery();
    const running = this.ctx.storage.sql
      .exec<{ key: string; task_id: string; trial: number }>(
        `SELECT key, task_id, trial FROM episodes WHERE status = 'running' AND key NOT IN (SELECT key FROM self_watched)`,
      )
      .toArray();
    const checks = await Promise.allSettled(running.map(async (row) => this.noteWatch(row.key, await this.env.EPISODE.getByName(row.key).start(launchOf(run, row), run.forkState ?? undefined))));
    for (const check of checks) {
      if (check.status === 'rejected') console.warn(`episode check failed: ${check.reason instanceof Error ? check.reason.message : String(check.reason)}`);
    }
    await this.fill();
  }

  /** Records who checks on a started episode from now on. */
  private noteWatch(key: string, watch: EpisodeWatch): void {
    if (watch !== 'self') return;
    this.ctx.storage.sql.exec(`INSERT OR IGNORE INTO self_watched (key) VALUES (?)`, key);
    this.anySelfWatched = true;
  }

  /** Whether the recovery alarm has work: episodes to start, simulations to write, or running episodes to check. */
  private needsRecovery(): boolean {
    if (this.counts.pending > 0 || this.unwritten > 0) return true;
    if (!this.anySelfWatched) return this.counts.running > 0;
    const selfWatched = this.ctx.storage.sql
      .exec<{ n: number }>(`SELECT count(*) AS n FROM self_watched JOIN episodes USING (key) WHERE status = 'running'`)
      .one().n;
    return this.counts.running > selfWatched;
  }

  /** Starts pending episodes up to the run's concurrency; completes the run when nothing is left. */
  private async fill(): Promise<void> {
    const run = await this.run();
    if (run === null) return;
    const { pending, running } = this.counts;
    if (pending === 0 && running === 0) {
      // Completed once every simulation is in D1; until then the recovery alarm writes what is left.
      if (!(await this.writeUnwritten())) return this.armRecovery();
      if (await this.oneRound(() => this.addRound(run))) return this.fill();
      await this.ctx.storage.deleteAlarm();
      this.recoveryArmed = false;
      await setRunStatus(this.env.DB, run.runId, 'completed', 'running');
      return;
    }
    // Armed before the starts: it covers a start lost in a crash until the episode is known to have it.
    await this.armRecovery();
    const free = run.config.max_concurrency - running;
    if (free > 0) {
      if (await budgetSpent(this.env, run.budget, Date.now())) return this.cancel(BUDGET_SPENT);
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
            this.noteWatch(row.key, await this.env.EPISODE.getByName(row.key).start(launchOf(run, row), run.forkState ?? undefined));
          } catch (error) {
            // Back to pending, so the next fill (the caller's retry) starts it.
            this.move(row.key, 'pending', 'running');
            throw error;
          }
        }),
      );
    }
    if (!this.needsRecovery()) await this.disarmRecovery();
  }

  private async armRecovery(): Promise<void> {
    this.recoveryArmed ??= (await this.ctx.storage.getAlarm()) !== null;
    if (this.recoveryArmed) return;
    await this.ctx.storage.setAlarm(Date.now() + RECOVERY_MS);
    this.recoveryArmed = true;
  }

  private async disarmRecovery(): Promise<void> {
    if (this.recoveryArmed === false) return;
    await this.ctx.storage.deleteAlarm();
    this.recoveryArmed = false;
  }

  /** The run as started, or null before `start` recorded it. */
  private async run(): Promise<RecordedRun | null> {
    if (this.recorded === null) {
      const values = await this.ctx.storage.get<string | RunBudget>(['run_id', 'config', 'tenant', 'budget', 'fork_state']);
      const runId = values.get('run_id') as string | undefined;
      const configText = values.get('config') as string | undefined;
      if (runId === undefined || configText === undefined) return null;
      const budget = values.get('budget') as RunBudget | undefined;
      const tenant = (values.get('tenant') as string | undefined) ?? 'operator';
      const forkState = values.get('fork_state') as string | undefined;
      this.recorded = { runId, configText, config: decodeConfig(configText), tenant, budget: budget ?? null, forkState: forkState === undefined ? null : (JSON.parse(forkState) as StoredRows) };
    }
    return this.recorded;
  }
}

/**
 * A finished simulation's task and, for an infrastructure error, its recorded error (null for one that ran),
 * from its rows as JSON text: only an infrastructure error's record (small, without messages) is parsed.
 */
const finishedOf = (rowsText: string): [taskId: string, infraError: string | null] => {
  if (!rowsText.includes('"terminationReason":"infrastructure_error"')) return ['', null];
  const { simulation } = JSON.parse(rowsText) as SimulationRows;
  return [simulation.taskId, infraErrorOf(SimulationRunSchema.parse(parsePyJson(simulation.record)))];
};

/** The launch of one of the run's episodes (a fork group's starting state goes beside it). */
const launchOf = (run: RecordedRun, row: { task_id: string; trial: number }): string =>
  encodeLaunch({ run_id: run.runId, config: run.configText, task_id: row.task_id, trial: row.trial, tenant: run.tenant });
