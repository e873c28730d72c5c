// The producer of built-in turns: for a turn an episode waits for, it calls the run's model (or the run's agent
// endpoint) under a lease of the provider's cap and hands the result back for that step; while the episode keeps
// handing back built-in turns, it produces them in one go under the same lease. A provider failure after the
// client's own retries is handed back as an infrastructure error, for the episode's whole-simulation retry. The
// queue consumer (consumer.ts), the episode object (when a slot is free at once) and the step API (the user's
// reply to an external agent) all run this loop.
import { parsePyJson, dumpsPy } from '../../core/py/index.ts';
import type { PyInput, PyValue } from '../../core/py/index.ts';
import type { ChatMessage, LlmClient, LlmResponse } from '../../core/llm/types.ts';
import type { ToolSchema } from '../../core/llm/tool-schema.ts';
import type { LocalTurn, PendingTurn, TurnOutcome, TurnResult } from '../../core/episode/turn.ts';
import type { TurnRequest } from '../../core/agents/participant.ts';
import { providerFor } from '../runs/models.ts';
import type { Provider } from '../runs/models.ts';
import { providerGate } from '../runs/provider-gate.ts';
import { agentEndpointClient } from '../agent-endpoint.ts';
import { isRefusal } from '../../core/runner/refusal.ts';
import { budgeted } from '../tenancy/spend-ledger.ts';

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
