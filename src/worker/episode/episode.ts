// One episode's life inside its object, without the Durable Object class: the turns it applies (each exactly
// once, persisted before the next is asked for), what it asks for next (a built-in turn of a producer, an external
// participant's turn within its idle limit, its grading), the whole-simulation retry of a failed attempt, and the
// hand-over of its simulation to the run, after which the object keeps only its phase and resets itself. The
// object (episode-do.ts) reaches it from its RPC methods and alarm; it reaches the object through EpisodeObject.
import pLimit from 'p-limit';
import type { SimulationRun } from '../../core/schemas/simulation.ts';
import type { EpisodeState } from '../../core/schemas/episode.ts';
import { envOptions } from '../../core/orchestrator/deps.ts';
import { isRefusal } from '../../core/runner/refusal.ts';
import { retriesAfter } from '../../core/episode/retry.ts';
import { GRADING_STAGE, isGradingFailure } from '../../core/runner/grading-failure.ts';
import { jitterBackoff } from '../../core/llm/retry.ts';
import { applyTurn, startEpisode, turnCall } from '../../core/episode/machine.ts';
import type { LiveEpisode } from '../../core/episode/machine.ts';
import type { EpisodePhase, LocalTurn, TurnOutcome, TurnResult } from '../../core/episode/turn.ts';
import { launchFromLegacy } from './launch.ts';
import { EpisodeStore } from './store.ts';
import type { StoredRows } from './store.ts';
import { episodeContext, externalRole, isJudged } from './context.ts';
import type { EpisodeContext } from './context.ts';
import { finalTurn } from './external.ts';
import type { ExternalHost } from './external.ts';
import { TURN_WATCHDOG_MS, TurnProduction } from './production.ts';
import { gradeEpisode } from './grading.ts';
import { forkOwnFields, forkStartRows } from './fork.ts';
import { Waiters } from './waiters.ts';
import { limits } from '../tenancy/limits.ts';
import { simulationRows } from '../db/simulations.ts';

/** What an episode needs of its Durable Object. */
export interface EpisodeObject {
  readonly env: Env;
  readonly storage: DurableObjectStorage;
  waitUntil(promise: Promise<unknown>): void;
  /** Resets the object's instance (its storage stays). */
  abort(reason: string): void;
}

const GATE_WAIT_MS = 250;
type Applied = TurnOutcome & { status: 'applied' };

export class Episode {
  readonly store: EpisodeStore;
  readonly production: TurnProduction;
  /** The external-participant protocol's view of this episode. */
  readonly external: ExternalHost;
  private readonly object: EpisodeObject;
  private context: Promise<EpisodeContext> | null = null;
  /** The current attempt's episode; undefined until read from storage, null before initialization. */
  private live: LiveEpisode | null | undefined = undefined;
  /** When the armed alarm fires (null: none armed by this instance). */
  private alarmAt: number | null = null;
  /**
   * Submissions are applied one at a time: a tool call may await a model or an endpoint while it runs, and a
   * submission arriving meanwhile must see the outcome stored, not the turn half applied.
   */
  readonly oneAtATime = pLimit(1);
  /** Set once the simulation is being handed to the run, which may complete before the phase below is stored. */
  private handingOver = false;
  /** Set while this instance grades the episode (the run's check leaves it alone). */
  private grading = false;
  /** Callers waiting for the episode to change (see waiters.ts), told by every write to its storage. */
  private readonly waiters = new Waiters();

  constructor(object: EpisodeObject) {
    this.object = object;
    this.store = new EpisodeStore(object.storage, { kv: object.storage.kv, launch: launchFromLegacy }, () => this.waiters.changed());
    this.production = new TurnProduction(object.env, object);
    this.external = {
      store: this.store,
      phase: () => this.phase(),
      loadContext: () => this.loadContext(),
      loadLive: (context) => this.loadLive(context),
      handingOver: () => this.handingOver,
      takesTurns: () => this.takesTurns(),
      waiters: this.waiters,
      applyAnswer: async (context, live, step, result, produceNext) => this.continueAfter(context, await this.apply(context, live, step, result), produceNext),
    };
  }

  applyResult(step: number, result: TurnResult, produceNext: boolean): Promise<TurnOutcome & { pending?: LocalTurn }> {
    return this.oneAtATime(async () => {
      // A finished episode keeps nothing but its phase.
      if (this.phase() === 'finished' || this.phase() === undefined) return this.refused('not_running');
      const context = await this.loadContext();
      const pendingStep = this.store.nextStep();
      // Every step below the pending one has its answer recorded; the pending one and later ones have none.
      const recorded = step < pendingStep ? this.store.turn(step) : null;
      if (recorded) return recorded.result === JSON.stringify(result) ? recorded.outcome : this.refused('conflict');
      if (!this.takesTurns()) return this.refused('not_running');
      const live = this.loadLive(context);
      // An external participant's turns come through submitExternalTurn only.
      if (!live || live.pending === null || step !== pendingStep || live.pending === externalRole(context)) return this.refused('not_pending');
      return this.continueAfter(context, await this.apply(context, live, step, result), produceNext);
    });
  }

  /** Stores the answer to turn `step` and its outcome; a failure to apply it is a failed attempt. */
  private async apply(context: EpisodeContext, live: LiveEpisode, step: number, result: TurnResult): Promise<Applied> {
    const failed = (next: Applied['next']): Applied => ({ status: 'applied', step, next, next_step: null });
    let outcome: Applied;
    if (result.kind === 'error') outcome = failed(this.failAttempt(context, new Error(result.message), result.retryable === false));
    else {
      try {
        this.store.save(await applyTurn(live, result, context.deps));
        outcome = { status: 'applied', step, next: live.pending === null ? 'finishing' : 'turn', next_step: live.pending === null ? null : step + 1 };
      } catch (error) {
        outcome = failed(this.failAttempt(context, error));
      }
    }
    this.store.recordTurn(step, JSON.stringify(result), outcome);
    return outcome;
  }

  /** Asks for what follows an applied turn; with `produceNext`, hands a built-in next turn to the caller. */
  private async continueAfter(context: EpisodeContext, next: Applied, produceNext: boolean): Promise<TurnOutcome & { pending?: LocalTurn }> {
    const live = this.live;
    if (next.next === 'finishing' && live?.state.done && externalRole(context) === null && !isJudged(live.state)) {
      // Graded right after this answer when no judge is called: an alarm less per episode. The answer goes first,
      // as the object is reset once the run knows; a failed grading is retried by an alarm, one cut short by the run.
      this.object.waitUntil(
        this.evaluate(context, live.state).catch(async (error: unknown) => {
          console.warn(`episode ${context.key} evaluation deferred: ${error instanceof Error ? error.message : String(error)}`);
          await this.armAlarm(Date.now());
        }),
      );
      return next;
    }
    // Only a built-in turn is handed over (an external one is its client's), and only then is its request built.
    const handOver = produceNext && next.next === 'turn' && live != null && live.pending !== null && live.pending !== externalRole(context);
    await this.schedule(!handOver);
    return handOver ? { ...next, pending: this.describePending(context, live)! } : next;
  }

  /** Starts the current attempt's episode up to its first turn and asks for it; a fork's from its group's starting rows when given. */
  async initialize(context: EpisodeContext, forkState?: StoredRows): Promise<void> {
    const origin = context.launch.config.fork_of;
    try {
      if (origin === undefined) {
        this.live = await startEpisode({ ...context.spec, simulationId: crypto.randomUUID() }, context.deps);
        this.store.save(this.live);
      } else {
        const rows = forkState ?? (await forkStartRows(this.object.env, context, origin));
        // A fork whose source cannot be rebuilt would fail the same way again: no retry.
        if (typeof rows === 'string') this.failAttempt(context, new Error(rows), true);
        else {
          this.store.copy(rows, forkOwnFields(context));
          // Read into memory on first use, as after an eviction: a fork waiting for its client needs only its cursor.
          this.live = undefined;
        }
      }
    } catch (error) {
      this.failAttempt(context, error);
    }
    return this.schedule();
  }

  /** The turn waited for, as a producer needs it. */
  describePending(context: EpisodeContext, live: LiveEpisode | null): LocalTurn | null {
    if (!live || live.pending === null) return null;
    const { launch } = context;
    const agentEndpoint = live.pending === 'agent' ? (launch.config.agent_endpoint?.url ?? null) : null;
    const { run_id, tenant, task_id, trial } = launch;
    return { episode: context.key, run_id, tenant, task_id, trial, step: this.store.nextStep(), role: live.pending, external: live.pending === externalRole(context), agent_endpoint: agentEndpoint, ...turnCall(live, context.deps) };
  }

  /** Asks for what the episode waits for: its next turn (sent to a producer unless `send` is false), or its grading. */
  async schedule(send = true): Promise<void> {
    if (this.phase() !== 'running') return;
    const live = this.live;
    // An episode not read into memory yet stands where its stored cursor says.
    const standing = live === undefined ? this.store.standing() : live && { done: live.state.done, pending: live.pending };
    if (this.store.get('failure') !== undefined || standing?.done) return this.armAlarm(Date.now());
    if (!standing) return this.armAlarm(this.store.get<number>('retry_at') ?? Date.now());
    if (standing.pending === null) return;
    const context = await this.loadContext();
    const external = externalRole(context);
    if (standing.pending === external) {
      // Nobody here produces it: the client steps the episode, within the idle limit.
      const askedAt = Date.now();
      this.store.put('asked_at', askedAt);
      return this.armAlarm(askedAt + this.externalTurnTtlMs());
    }
    this.production.askedAt = Date.now();
    // An episode that watches itself arms the built-in turn's watchdog (the run's check covers the others).
    if (external !== null) await this.armAlarm(this.production.askedAt + TURN_WATCHDOG_MS);
    const here = { submitTurn: (step: number, result: TurnResult, options: { produceNext?: boolean }) => this.applyResult(step, result, options.produceNext === true) };
    if (send) await this.production.send(() => this.describePending(context, this.loadLive(context)), here, context.key, () => this.store.nextStep());
  }

  async evaluate(context: EpisodeContext, state: EpisodeState): Promise<void> {
    this.grading = true;
    try {
      const graded = await gradeEpisode(this.object.env, context, state);
      if (graded.kind === 'busy') return this.armAlarm(Date.now() + jitterBackoff(1, GATE_WAIT_MS));
      if (graded.kind === 'failed') {
        this.failAttempt(context, graded.error);
        return this.schedule();
      }
      // A cancel may have arrived while the judge was answering.
      if (this.phase() === 'running') await this.finish(context, graded.simulation);
    } finally {
      this.grading = false;
    }
  }

  /**
   * Ends a running episode as an infrastructure error because its external participant cannot go on (an A2A
   * agent that broke the protocol): no retry, since that participant would see its conversation start over.
   */
  failExternal(message: string): Promise<void> {
    return this.oneAtATime(async () => {
      if (this.phase() !== 'running' || this.store.get('failure') !== undefined) return;
      console.warn(`episode ${(await this.loadContext()).key} ended by its external participant: ${message}`);
      this.store.put('failure', message);
      await this.armAlarm(Date.now());
    });
  }

  /** A failed attempt: started over with the same seed after `retry_delay`, or ended as an infrastructure error. */
  private failAttempt(context: EpisodeContext, error: unknown, refused = isRefusal(error)): 'turn' | 'finishing' {
    const attempt = this.attempt();
    const message = error instanceof Error ? error.message : String(error);
    console.warn(`episode ${context.key} attempt ${attempt} failed: ${message}`);
    this.store.clearEpisode();
    this.live = null;
    // An external participant would see its conversation start over: its episode is not retried.
    if (retriesAfter({ attempt, maxRetries: context.launch.config.max_retries, refused, stopped: externalRole(context) !== null })) {
      this.store.put('attempt', attempt + 1);
      this.store.put('retry_at', Date.now() + context.launch.config.retry_delay * 1000);
      return 'turn';
    }
    this.store.put('failure', message);
    if (isGradingFailure(error)) this.store.put('failure_stage', GRADING_STAGE);
    return 'finishing';
  }

  /** Hands the simulation to the run, which stores it and writes it to D1 with others. */
  async finish(context: EpisodeContext, simulation: SimulationRun): Promise<void> {
    this.handingOver = true;
    await this.notifyRun(context, JSON.stringify(simulationRows(context.launch.run_id, simulation, new Date().toISOString())));
  }

  /**
   * Tells the run the episode finished (with its simulation's rows, unless an earlier version wrote them to D1:
   * phase `written`), then keeps only its phase (a repeated start changes nothing) and, with an external
   * participant, its final turn (a repeat of it is answered again), and resets the instance rather than leave it
   * to idle eviction: a run keeps starting episodes, and finished ones would hold most of the runtime's memory.
   */
  async notifyRun(context: EpisodeContext, rowsText?: string): Promise<void> {
    await this.object.env.RUN.getByName(context.launch.run_id).episodeFinished(context.key, rowsText);
    // A production here ends once the last turn is applied; its lease is released before the reset below.
    await this.production.ended();
    if (this.alarmAt !== null) await this.disarm();
    const final = externalRole(context) === null ? null : finalTurn(this.store);
    this.wipe();
    this.store.put('phase', 'finished');
    if (final !== null) this.store.put('final_turn', final);
    await this.object.storage.sync();
    setTimeout(() => this.object.abort('episode finished'), 0);
  }

  /** Whether this instance is grading the episode now. */
  isGrading(): boolean {
    return this.grading;
  }

  wipe(): void {
    this.store.clear();
    this.context = null;
    this.live = undefined;
  }

  attempt(): number {
    return this.store.get<number>('attempt') ?? 1;
  }

  externalTurnTtlMs(): number {
    return limits(this.object.env).LIMIT_EXTERNAL_TURN_TTL_SECONDS * 1000;
  }

  /** The armed alarm fired: none is armed now. */
  alarmFired(): void {
    this.alarmAt = null;
  }

  async armAlarm(at: number): Promise<void> {
    this.alarmAt = at;
    await this.object.storage.setAlarm(at);
  }

  async disarm(): Promise<void> {
    await this.object.storage.deleteAlarm();
    this.alarmAt = null;
  }

  private refused(reason: 'not_pending' | 'conflict' | 'not_running'): TurnOutcome {
    const pending = this.phase() === 'running' && this.live?.pending ? this.store.nextStep() : null;
    return { status: 'refused', reason, pending_step: pending };
  }

  /** Whether a turn may still be applied: running, and its simulation not yet on its way to the run. */
  takesTurns(): boolean {
    return this.phase() === 'running' && !this.handingOver;
  }

  phase(): EpisodePhase | undefined {
    return this.store.get<EpisodePhase>('phase');
  }

  /** The launch decoded, the engine's spec and dependencies built: once per instance. */
  loadContext(): Promise<EpisodeContext> {
    this.context ??= episodeContext(this.object.env, this.store.get<string>('launch')!);
    this.context.catch(() => (this.context = null));
    return this.context;
  }

  loadLive(context: EpisodeContext): LiveEpisode | null {
    if (this.live === undefined) this.live = this.store.load(context.spec.task, context.deps.domain, context.deps.data, envOptions(context.spec, context.deps));
    return this.live;
  }
}
