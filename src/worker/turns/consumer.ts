// The producer of built-in turns: a Queue consumer that, for each `{episode, step}` message, reads the turn the
// episode waits for, calls the run's model under the provider's cap, and hands the result back for that step.
// A message for a turn already answered (a repeat asked for by the run's check) does nothing; consecutive
// turns of one episode are produced in one go; a provider failure after the client's own retries is handed back
// as an infrastructure error, for the episode's whole-simulation retry. The episode object runs the same loop
// itself when a slot of the cap is free at once (`produceTurnsIfFree`).
import { parsePyJson, dumpsPy } from '../../core/py/index.ts';
import type { PyInput, PyValue } from '../../core/py/index.ts';
import type { ChatMessage, LlmClient, LlmResponse } from '../../core/llm/types.ts';
import type { ToolSchema } from '../../core/llm/tool-schema.ts';
import type { LocalTurn, PendingTurn, TurnOutcome, TurnResult } from '../episode/turn.ts';
import type { TurnRequest } from '../../core/agents/participant.ts';
import { providerFor } from '../runs/models.ts';
import type { Provider } from '../runs/models.ts';
import { providerGate } from '../runs/provider-gate.ts';
import { agentEndpointClient } from '../agent-endpoint.ts';
import { isRefusal } from '../../core/runner/refusal.ts';
import { budgeted } from '../tenancy/spend-ledger.ts';

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
  ...(response.providerState ? { provider_state: dumpsPy(response.providerState as unknown as PyInput) } : {}),
});

/** Runs `work` holding a lease of the endpoint's gate (one slot of its cap). */
export const withProviderLease = async <T>(env: Env, endpoint: string, holder: string, work: () => Promise<T>): Promise<T> => {
  const gate = providerGate(env, endpoint);
  while (!(await gate.stub.acquire(holder, gate.cap, GATE_WAIT_MS)));
  try {
    return await work();
  } finally {
    await gate.stub.release(holder);
  }
};

const failed = (error: unknown): TurnResult => ({
  kind: 'error',
  message: error instanceof Error ? error.message : String(error),
  ...(isRefusal(error) ? { retryable: false } : {}),
});

/** A turn to produce: a pending turn from RPC or the queue (its request as text), or one its episode object hands its own producer. */
export type ProducibleTurn = PendingTurn | LocalTurn;

const requestOf = (turn: ProducibleTurn): TurnRequest => {
  if (typeof turn.request !== 'string') return turn.request;
  const wire = parsePyJson(turn.request) as unknown as WireRequest;
  return { messages: wire.messages, tools: wire.tools, toolChoice: wire.tool_choice, llmArgs: wire.llm_args };
};

/** Calls the model of a pending turn; a failure after the client's retries becomes the turn's error result. */
export const callModel = async (client: LlmClient, turn: ProducibleTurn): Promise<TurnResult> => {
  const request = requestOf(turn);
  try {
    const response = await client.generate({ model: turn.model, ...request });
    return turnResult(response);
  } catch (error) {
    return failed(error);
  }
};

/** How long one message keeps producing an episode's consecutive turns before handing back to the queue. */
export const CONTINUE_MS = 60_000;

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

/** Where produced turns are handed back: an episode's stub, or the episode object itself. */
export interface TurnSink {
  submitTurn(step: number, result: TurnResult, options: { produceNext?: boolean }): Promise<TurnOutcome & { pending?: ProducibleTurn }>;
}

/**
 * Produces `first` and, until `deadline`, the built-in turns the episode hands back after it: the queue
 * consumer's loop, also run by the step API to produce the user's reply to an external agent.
 */
export const produceTurns = async (env: Env, episode: TurnSink, first: PendingTurn, deadline: number): Promise<void> => {
  let provider: Provider;
  try {
    provider = await providerFor(env, first.tenant);
  } catch (error) {
    // No usable provider (e.g. a tenant endpoint no longer allowed): the turn fails like a provider failure.
    await episode.submitTurn(first.step, failed(error), { produceNext: false });
    return;
  }
  await withProviderLease(env, provider.endpoint, leaseHolder(first), () => produceLeased(env, episode, provider, first, deadline));
};

/**
 * Produces like `produceTurns` only when a slot of the provider's cap is free at once: the running production
 * (its lease released at its end), or null with nothing done (the caller sends the turn to the queue, which
 * also reports an unusable provider).
 */
export const produceTurnsIfFree = async (env: Env, episode: TurnSink, first: ProducibleTurn, deadline: number): Promise<{ readonly done: Promise<void> } | null> => {
  const provider = await providerFor(env, first.tenant).catch(() => null);
  if (provider === null) return null;
  const gate = providerGate(env, provider.endpoint);
  const holder = leaseHolder(first);
  if (!(await gate.stub.acquire(holder, gate.cap))) return null;
  return { done: produceLeased(env, episode, provider, first, deadline).finally(() => gate.stub.release(holder)) };
};

const leaseHolder = ({ episode, step }: ProducibleTurn): string => `${episode}#${step}#${crypto.randomUUID()}`;

/** The loop of the two above, under a lease they hold. */
const produceLeased = async (env: Env, episode: TurnSink, provider: Provider, first: ProducibleTurn, deadline: number): Promise<void> => {
  let turn: ProducibleTurn | null = first;
  while (turn !== null) {
    const current: ProducibleTurn = turn;
    // A remote agent's turn goes to its endpoint; one that cannot be called (no longer allowed) fails the turn
    // as a provider failure would.
    const result =
      current.agent_endpoint === null
        ? await callModel(budgeted(env, { tenant: current.tenant, runId: current.run_id }, provider.client), current)
        : await agentEndpointClient(env, current.run_id, current.agent_endpoint).then((client) => callModel(client, current), failed);
    const produceNext = Date.now() < deadline;
    const outcome = await episode.submitTurn(current.step, result, { produceNext });
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
