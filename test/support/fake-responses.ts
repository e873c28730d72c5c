// OpenAI's Responses API on the scripted native server: reply bodies with a reasoning item (its encrypted
// content when `include` asks for it) before the function call or message, and the rules the real API enforces
// with `store: false`: a function call comes with the reasoning item it was issued after, and a reasoning item
// comes with its encrypted content, as issued (400 invalid_request_error otherwise). Nothing is stored here, so a
// request with store other than false is refused too.
import { createHash } from 'node:crypto';
import type { Refusal } from './fake-anthropic.ts';
import type { NativeReply } from './fake-native.ts';

type Item = Record<string, unknown>;

/** Each issued reasoning item's encrypted content, and the reasoning item each function call was issued after. */
const encrypted = new Map<string, string>();
const reasoningOf = new Map<string, string>();

const ENCRYPTED_INCLUDE = 'reasoning.encrypted_content';

export const responsesRefusal = (body: Record<string, unknown>): Refusal | null => {
  if (body.store !== false) return { status: 400, message: 'This scripted server stores nothing: send `store: false`.' };
  const input = (body.input ?? []) as Item[];
  const seen = new Set<string>();
  for (const item of input) {
    if (item.type === 'reasoning') {
      const id = String(item.id);
      if (item.encrypted_content === undefined || item.encrypted_content === null) {
        return { status: 400, message: `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.` };
      }
      if (encrypted.get(id) !== item.encrypted_content) return { status: 400, message: `The encrypted content for item ${id} could not be verified.` };
      seen.add(id);
    }
    if (item.type === 'function_call') {
      const required = reasoningOf.get(String(item.call_id));
      if (required !== undefined && !seen.has(required)) {
        return { status: 400, message: `Item '${String(item.id ?? item.call_id)}' of type 'function_call' was provided without its required 'reasoning' item: '${required}'.` };
      }
    }
  }
  return null;
};

export const responsesErrorBody = (message: string, status: number) => ({
  error: { message, type: status === 400 ? 'invalid_request_error' : 'server_error', param: status === 400 ? 'input' : null, code: null },
});

export const responsesBody = (body: Record<string, unknown>, model: string, reply: Exclude<NativeReply, { kind: 'error' }>, n: number) => {
  const withEncrypted = ((body.include ?? []) as string[]).includes(ENCRYPTED_INCLUDE);
  const reasoningId = `rs_${n}`;
  const content = `enc-${createHash('sha256').update(`${reasoningId}/${reply.reasoning ?? ''}`).digest('hex').slice(0, 32)}`;
  const reasoning =
    reply.reasoning === undefined
      ? []
      : [{ type: 'reasoning', id: reasoningId, summary: [{ type: 'summary_text', text: reply.reasoning }], ...(withEncrypted ? { encrypted_content: content } : {}) }];
  if (reasoning.length > 0) encrypted.set(reasoningId, content);
  const callId = `call_${n}`;
  // Ids restart with each server (and test files may share this module), so an id's last issue is the one that counts.
  if (reply.kind === 'tool' && reasoning.length > 0) reasoningOf.set(callId, reasoningId);
  else reasoningOf.delete(callId);
  const answer =
    reply.kind === 'text'
      ? { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }
      : { type: 'function_call', id: `fc_${n}`, call_id: callId, name: reply.name, arguments: JSON.stringify(reply.input), status: 'completed' };
  return {
    id: `resp_${n}`,
    object: 'response',
    created_at: 1_780_000_000,
    status: 'completed',
    model,
    output: [...reasoning, answer],
    usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: reasoning.length > 0 ? 4 : 0 }, total_tokens: 18 },
  };
};
