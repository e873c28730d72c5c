// The producer of built-in turns: a Queue consumer that, for each `{episode, step}` message, reads the turn the
// episode waits for, calls the run's model under the provider's cap, and hands the result back for that step.
// A message for a turn already answered (a watchdog repeat) does nothing; consecutive turns of one episode
// are produced in one go; a provider failure after the client's
// own retries is handed back as an infrastructure error, for the episode's whole-simulation retry.
import { parsePyJson, dumpsPy } from '../../core/py/index.ts';
import type { PyInput, PyValue } from '../../core/py/index.ts';
import type { ChatMessage, LlmResponse } from '../../core/llm/types.ts';
import type { ToolSchema } from '../../core/environment/toolkit.ts';
import type { PendingTurn, TurnResult } from '../episode/turn.ts';
import { providerFor } from '../runs/models.ts';
import { providerGate } from '../runs/provider-gate.ts';

export interface TurnMessage {
  readonly episode: string;
  readonly step: number;
}

/** How long one `acquire` waits for a slot of the provider's cap before asking again. */
const GATE_WAIT_MS = 10_000;

interface WireRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSchema[] | null;
  readonly tool_choice: 'auto' | 'required' | null;
  readonly llm_args: Readonly<Record<string, PyValue>>;
}

/** A provider response as a turn result (Python values as text). */
export const turnResult = (response: LlmResponse): TurnResult => ({
  kind: 'response',
  content: response.content,
  tool_calls: response.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
  cost: response.cost,
  usage: response.usage,
  raw_data: response.rawData === null ? null : dumpsPy(response.rawData as PyInput),
  generation_time_seconds: response.generationTimeSeconds,
});

/** Calls the model of a pending turn (holding a lease of its provider's gate for the call). */
export const callModel = async (env: Env, turn: PendingTurn): Promise<TurnResult> => {
  const request = parsePyJson(turn.request) as unknown as WireRequest;
  let provider;
  try {
    provider = await providerFor(env, turn.tenant);
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  const gate = providerGate(env, provider.endpoint);
  const holder = `${turn.episode}#${turn.step}#${crypto.randomUUID()}`;
  while (!(await gate.stub.acquire(holder, gate.cap, GATE_WAIT_MS)));
  try {
    const response = await provider.client.generate({
      model: turn.model,
      messages: request.messages,
      tools: request.tools,
      toolChoice: request.tool_choice,
      llmArgs: request.llm_args,
    });
    return turnResult(response);
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  } finally {
    await gate.stub.release(holder);
  }
};

/** How long one message keeps producing an episode's consecutive turns before handing back to the queue. */
const CONTINUE_MS = 60_000;

/**
 * Produces the turn of the message and, while its episode keeps waiting for turns, the following ones: each
 * submitted result hands back the next turn, which saves a queue round trip per turn.
 */
export const produceTurn = async (env: Env, { episode, step }: TurnMessage): Promise<void> => {
  const stub = env.EPISODE.getByName(episode);
  let turn: PendingTurn | null = await stub.pendingTurn();
  if (turn === null || turn.step !== step) return;
  const deadline = Date.now() + CONTINUE_MS;
  while (turn !== null) {
    const result = await callModel(env, turn);
    const produceNext = Date.now() < deadline;
    const outcome = await stub.submitTurn(turn.step, result, { produceNext });
    turn = produceNext && outcome.status === 'applied' && outcome.pending !== undefined ? outcome.pending : null;
  }
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
