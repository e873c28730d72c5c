// The TURNS queue consumer: for each `{episode, step}` message, reads the turn the episode waits for and, when it
// is still that step's built-in turn, produces it and the episode's following turns (producer.ts). A message for
// a turn already answered (a repeat asked for by the run's check) does nothing; a failed message is retried.
import { CONTINUE_MS, produceTurns } from './producer.ts';

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

export const consumeTurns = async (batch: MessageBatch<TurnMessage>, env: Env): Promise<void> => {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await produceTurn(env, message.body);
        message.ack();
      } catch (error) {
        console.warn(`turn ${message.body.episode}#${message.body.step} not produced: ${error instanceof Error ? error.message : String(error)}`);
        message.retry();
      }
    }),
  );
};
