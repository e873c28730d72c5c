// The production of an episode's built-in turns, seen from its object: a turn waited for is produced right in the
// object when it runs no production yet and a slot of the provider's cap is free at once (no queue message,
// consumer invocation or RPC per turn), else sent to the TURNS queue. It keeps when the turn was asked for, so
// a turn not answered within TURN_WATCHDOG_MS (its message or producer lost, e.g. in a crash) is asked for again.
import type { LocalTurn } from '../../core/episode/turn.ts';
import { CONTINUE_MS, produceTurnsIfFree } from '../turns/producer.ts';
import type { TurnSink } from '../turns/producer.ts';

/** A built-in turn not answered in this time is asked for again at the run's next check (its message may have been lost in a crash). */
export const TURN_WATCHDOG_MS = 15_000;

export class TurnProduction {
  /** When the built-in turn waited for was asked for (null: none asked for by this instance). */
  askedAt: number | null = null;
  /** The production of built-in turns running in this object, or null. */
  private producing: Promise<void> | null = null;

  private readonly env: Env;
  private readonly ctx: Pick<DurableObjectState, 'waitUntil'>;

  constructor(env: Env, ctx: Pick<DurableObjectState, 'waitUntil'>) {
    this.env = env;
    this.ctx = ctx;
  }

  /** Whether the built-in turn waited for was asked for less than TURN_WATCHDOG_MS ago (it still has its time). */
  askedRecently(): boolean {
    return this.askedAt !== null && Date.now() < this.askedAt + TURN_WATCHDOG_MS;
  }

  /** Whether a production runs here (the next turn is then its own to produce, or the queue's). */
  running(): boolean {
    return this.producing !== null;
  }

  /** Settles once the production running here, if any, has ended (its lease released). */
  async ended(): Promise<void> {
    await this.producing;
  }

  /**
   * Hands the turn waited for (turn `nextStep()` of `episode`) to a producer: this object itself when it runs no
   * production yet and a slot is free at once (the turn then `described`, its request built), else the queue.
   */
  async send(described: () => LocalTurn | null, here: TurnSink, episode: string, nextStep: () => number): Promise<void> {
    const turn = this.producing === null ? described() : null;
    if (turn !== null) {
      const started = produceTurnsIfFree(this.env, here, turn, Date.now() + CONTINUE_MS);
      const production: Promise<void> = started
        .then((run) => run?.done)
        .catch((error: unknown) => console.warn(`turn ${episode}#${turn.step} not produced here: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          if (this.producing === production) this.producing = null;
        });
      this.producing = production;
      this.ctx.waitUntil(production);
      if ((await started.catch(() => null)) !== null) return;
    }
    await this.env.TURNS.send({ episode, step: nextStep() });
  }
}
