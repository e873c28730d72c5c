// The TURNS queue consumer: for each `{episode, step}` message, reads the turn the episode waits for and, when it
// is still that step's built-in turn, produces it and the episode's following turns (producer.ts). A message for
// a turn already answered (a repeat asked for by the run's check) does nothing; a failed message is retried. A
// `{seat}` message is an a2a agent's turn (a2a/seat.ts): played, and the next one sent; an agent that fails or
// breaks the protocol ends its episode as an infrastructure error.
import { CONTINUE_MS, produceTurns } from './producer.ts';
import { endSeat, isSeatTurn, playSeatTurn } from '../a2a/seat.ts';
import type { SeatTurn } from '../a2a/seat.ts';
import { isInfraError } from '../../core/llm/types.ts';

export interface TurnMessage {
  readonly episode: string;
  readonly step: number;
}

/**
 * Produces the turn of the message and, while its episode keeps waiting for turns, the following ones: each
 * submitted result hands back the next turn, which saves a queue round trip per turn. One gate lease covers
 * the episode's consecutive calls (they never overlap), so the cap stays exact with two gate calls per message.
 */
export const produceTurn = async (env: Env, { episode, step }: TurnMessage): Promise<void> => {
  const stub = env.EPISODE.getByName(episode);
  const turn = await stub.pendingTurn();
  // An external participant's turn is its client's to produce.
  if (turn === null || turn.step !== step || turn.external) return;
  await produceTurns(env, stub, turn, Date.now() + CONTINUE_MS);
};

/** How long a seat waits before looking again at an episode that has not started. */
const SEAT_WAIT_SECONDS = 1;

const playSeat = async (env: Env, turn: SeatTurn): Promise<void> => {
  try {
    const next = await playSeatTurn(env, turn);
    if (next !== null) await env.TURNS.send(next, next.seat.user_text === null ? { delaySeconds: SEAT_WAIT_SECONDS } : {});
  } catch (error) {
    // The client has retried what a retry could mend: the agent's failure ends the episode, naming it.
    if (!isInfraError(error)) throw error;
    await endSeat(env, turn, error instanceof Error ? error.message : String(error));
  }
};

export const consumeTurns = async (batch: MessageBatch<TurnMessage | SeatTurn>, env: Env): Promise<void> => {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const { body } = message;
        await (isSeatTurn(body) ? playSeat(env, body) : produceTurn(env, body));
        message.ack();
      } catch (error) {
        const { body } = message;
        console.warn(`${isSeatTurn(body) ? `a2a turn of episode ${body.seat.episode_id}` : `turn ${body.episode}#${body.step}`} not produced: ${error instanceof Error ? error.message : String(error)}`);
        message.retry();
      }
    }),
  );
};
