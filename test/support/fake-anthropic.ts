// The Anthropic Messages API of the scripted native server: its reply bodies (thinking blocks with signatures
// when the reply reasons, cache counts when the request asks for caching) and the rules the real API enforces
// on extended thinking, refused with its error shape (400 invalid_request_error).
import { createHash } from 'node:crypto';
import type { NativeReply } from './fake-native.ts';

type Part = Record<string, unknown>;
type Message = { role: string; content: string | Part[] };

export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/** The signatures this server issued, by thinking text: a block comes back valid only with its own. */
const issued = new Map<string, string>();
/** The data of the redacted_thinking blocks this server issued. */
const redactedData = new Set<string>();

const sign = (text: string): string => {
  const signature = `sig-${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  issued.set(text, signature);
  return signature;
};

const hasCacheControl = (value: unknown): boolean => JSON.stringify(value ?? null).includes('"cache_control"');

/** The prompt's tokens, about four characters each, as a stand-in for the tokenizer. */
const tokens = (value: unknown): number => Math.ceil(JSON.stringify(value ?? '').length / 4);

/** `cached`: the prefixes (tools, then system) this server has seen; the next request with one reads it. */
const cacheUsage = (body: Record<string, unknown>, cached: Set<string>): { cache_creation_input_tokens: number; cache_read_input_tokens: number } => {
  if (!hasCacheControl(body.tools) && !hasCacheControl(body.system)) return { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const prefix = JSON.stringify([body.tools, body.system]);
  const size = tokens(prefix);
  if (cached.has(prefix)) return { cache_creation_input_tokens: 0, cache_read_input_tokens: size };
  cached.add(prefix);
  return { cache_creation_input_tokens: size, cache_read_input_tokens: 0 };
};

const redacted = (reasoning: string) => {
  const data = `redacted-${createHash('sha256').update(reasoning).digest('hex').slice(0, 24)}`;
  redactedData.add(data);
  return { type: 'redacted_thinking', data };
};

const thinkingOn = (body: Record<string, unknown>): boolean => (body.thinking as { type?: string } | undefined)?.type === 'enabled';

/** What the real API refuses in a request, or null. */
export const anthropicRefusal = (body: Record<string, unknown>): Refusal | null => {
  if (!thinkingOn(body)) return null;
  const { budget_tokens: budget } = body.thinking as { budget_tokens?: number };
  if (typeof budget !== 'number' || budget < 1024) return { status: 400, message: 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024' };
  if (typeof body.max_tokens !== 'number' || body.max_tokens <= budget) {
    return { status: 400, message: '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size' };
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    return { status: 400, message: '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility' };
  }
  const messages = (body.messages ?? []) as Message[];
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const [j, p] of m.content.entries()) {
      if (p.type === 'thinking' && issued.get(String(p.thinking)) !== p.signature) {
        return { status: 400, message: `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block` };
      }
      if (p.type === 'redacted_thinking' && !redactedData.has(String(p.data))) {
        return { status: 400, message: `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block` };
      }
    }
  }
  // In a tool-use loop (the last message carries tool results), the assistant turn with those tool_use blocks
  // must start with its thinking.
  const last = messages.at(-1);
  const inToolLoop = last !== undefined && typeof last.content !== 'string' && last.content.some((p) => p.type === 'tool_result');
  const turn = messages.length - 2;
  const assistant = messages[turn];
  if (inToolLoop && assistant?.role === 'assistant' && typeof assistant.content !== 'string') {
    const first = assistant.content[0];
    if (first?.type !== 'thinking' && first?.type !== 'redacted_thinking') {
      return {
        status: 400,
        message:
          `messages.${turn}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
      };
    }
  }
  return null;
};

export const anthropicErrorBody = (message: string, status: number) => ({
  type: 'error',
  error: { type: status === 400 ? 'invalid_request_error' : status === 401 ? 'authentication_error' : 'api_error', message },
});

export const anthropicBody = (body: Record<string, unknown>, model: string, reply: Exclude<NativeReply, { kind: 'error' }>, n: number, cached: Set<string>) => {
  const reasoning = thinkingOn(body) && reply.reasoning !== undefined ? reply.reasoning : undefined;
  const thinking = reasoning === undefined ? [] : [reply.redacted ? redacted(reasoning) : { type: 'thinking', thinking: reasoning, signature: sign(reasoning) }];
  const content = reply.kind === 'text' ? [{ type: 'text', text: reply.text }] : [{ type: 'tool_use', id: `toolu_${n}`, name: reply.name, input: reply.input }];
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [...thinking, ...content],
    stop_reason: reply.kind === 'text' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 6, ...cacheUsage(body, cached) },
  };
};
