// An A2A agent's seat at one episode played in this process. The engine asks the agent for each turn as it asks a
// model; the seat answers from the agent's conversation: the user's words go to the agent (the first time with the
// briefing: the episode's MCP URL, its token and the policy), and while that message is out, each tool the agent
// calls over MCP is the turn's tool call (its result, once the engine has played it, the call's answer), a
// send_message_to_user the agent's words (the user's reply its answer), and the agent's reply text its message.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { A2aConversation } from '../../../core/a2a/agent-client.ts';
import { userMessage } from '../../../core/a2a/play-episode.ts';
import type { EpisodeBriefing } from '../../../core/a2a/play-episode.ts';
import { agentSystemPrompt } from '../../../core/agents/prompts.ts';
import type { ChatMessage, LlmRequest, LlmResponse } from '../../../core/llm/types.ts';
import { JSON_RPC_ERRORS } from '../../../core/mcp/json-rpc.ts';
import { SEND_MESSAGE_TOOL, sendMessageTool, toolSpecOf } from '../../../core/mcp/server.ts';
import type { McpEpisode, Served } from '../../../core/mcp/server.ts';

/** What the agent does next while a message is out: call a tool, reply, or fail to answer. */
type Move =
  | { readonly kind: 'call'; readonly name: string; readonly arguments: unknown; readonly answer: (served: Served<CallToolResult>) => void }
  | { readonly kind: 'reply'; readonly text: string }
  | { readonly kind: 'failed'; readonly error: unknown };

/** The agent's call the engine is playing: the id of its tool call (null for send_message_to_user). */
interface Waiting {
  readonly callId: string | null;
  readonly answer: (served: Served<CallToolResult>) => void;
}

export interface EpisodeSeat {
  readonly id: string;
  readonly token: string;
  /** The episode's MCP server, as the agent reaches it. */
  readonly mcp: McpEpisode;
  /** The agent's turn for the engine's request. */
  turn(request: LlmRequest): Promise<LlmResponse>;
  /** The episode is over: a call still waiting is answered so, later calls refused. */
  close(): void;
}

const [POLICY_HEAD, POLICY_TAIL] = agentSystemPrompt('\u0000').split('\u0000') as [string, string];

/** The policy in the agent's system prompt (the briefing gives it as the Worker does: the policy alone). */
const policyOf = (messages: readonly ChatMessage[]): string => {
  const system = messages[0]?.role === 'system' ? (messages[0].content ?? '') : '';
  return system.startsWith(POLICY_HEAD) && system.endsWith(POLICY_TAIL) ? system.slice(POLICY_HEAD.length, system.length - POLICY_TAIL.length) : system;
};

const lastOf = (messages: readonly ChatMessage[], role: 'user') => messages.findLast((m) => m.role === role)?.content ?? '';

const refused = (message: string, code: number = JSON_RPC_ERRORS.SERVER_ERROR): Served<never> => ({ error: { code, message, data: null } });

const response = (content: string | null, toolCalls: LlmResponse['toolCalls']): LlmResponse => ({ content, toolCalls, usage: null, cost: 0, rawData: null, generationTimeSeconds: null });

export const episodeSeat = (id: string, token: string, mcpUrl: string, conversation: () => A2aConversation): EpisodeSeat => {
  let listed: { tools: Tool[]; policy: string } | null = null;
  let talk: A2aConversation | null = null;
  /** Counts conversations: the moves of an attempt given up are not the next attempt's. */
  let attempt = 0;
  let sending = false;
  let over = false;
  let calls = 0;
  /** How many messages the engine's last request had: fewer is the episode started again (a new attempt). */
  let seen = 0;
  let waiting: Waiting | null = null;
  const moves: Move[] = [];
  let wake: (() => void) | null = null;

  const push = (at: number, move: Move): void => {
    if (at !== attempt) return;
    moves.push(move);
    wake?.();
  };
  const nextMove = async (): Promise<Move> => {
    while (moves.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    return moves.shift()!;
  };
  const meta = (done: boolean) => ({ episode_id: id, step: calls, done });
  const answered = (text: string | null): Served<CallToolResult> => ({ value: { content: text === null ? [] : [{ type: 'text', text }], isError: false, _meta: meta(over) } });

  /** A new attempt of the episode: a new conversation, briefed again. */
  const restart = (request: LlmRequest): EpisodeBriefing => {
    attempt += 1;
    moves.length = 0;
    waiting?.answer(refused(`Episode ${id} was started again`));
    waiting = null;
    calls = 0;
    talk = conversation();
    const tools = (request.tools ?? []).map((t) => toolSpecOf(t as unknown as Record<string, unknown>, 'inputSchema') as Tool);
    listed = { tools: [...tools, sendMessageTool], policy: policyOf(request.messages) };
    return { episode_id: id, mcp: { url: mcpUrl, token }, policy: listed.policy };
  };

  const send = (text: string, briefing: EpisodeBriefing | null): void => {
    const at = attempt;
    sending = true;
    talk!.send(userMessage(text, briefing)).then(
      (reply) => push(at, { kind: 'reply', text: reply }),
      (error: unknown) => push(at, { kind: 'failed', error }),
    );
  };

  return {
    id,
    token,
    mcp: {
      list: async () => (listed === null ? refused(`Episode ${id} has not started: its tools are listed once it runs`) : { value: listed }),
      call: async (call, step) => {
        if (over) return refused(`Episode ${id} is over`);
        if (!sending) return refused(`Episode ${id} waits for no tool call: the agent calls tools while it answers a message`);
        if (step !== undefined && step !== calls) return refused(`Step ${step} is not the turn waited for (${calls})`);
        if (call.name === SEND_MESSAGE_TOOL && typeof (call.arguments as { message?: unknown } | null)?.message !== 'string') {
          return refused('arguments.message: Expected a string', JSON_RPC_ERRORS.INVALID_PARAMS);
        }
        return new Promise((answer) => push(attempt, { kind: 'call', name: call.name, arguments: call.arguments, answer }));
      },
    },
    async turn(request) {
      const { messages } = request;
      const fresh = talk === null || messages.length <= seen;
      seen = messages.length;
      if (fresh) send(lastOf(messages, 'user'), restart(request));
      else if (waiting !== null) {
        const { callId, answer } = waiting;
        waiting = null;
        const tool = callId === null ? null : messages.findLast((m) => m.role === 'tool' && m.tool_call_id === callId);
        answer(answered(callId === null ? lastOf(messages, 'user') : (tool?.content ?? null)));
      } else send(lastOf(messages, 'user'), null);
      const move = await nextMove();
      if (move.kind === 'failed') {
        sending = false;
        throw move.error;
      }
      if (move.kind === 'reply') {
        sending = false;
        return response(move.text, []);
      }
      calls += 1;
      if (move.name === SEND_MESSAGE_TOOL) {
        waiting = { callId: null, answer: move.answer };
        return response((move.arguments as { message: string }).message, []);
      }
      const callId = `mcp_call_${calls}`;
      waiting = { callId, answer: move.answer };
      return response(null, [{ id: callId, name: move.name, arguments: JSON.stringify(move.arguments ?? {}) }]);
    },
    close() {
      over = true;
      waiting?.answer(answered(null));
      waiting = null;
      for (const move of moves.splice(0)) if (move.kind === 'call') move.answer(refused(`Episode ${id} is over`));
    },
  };
};
