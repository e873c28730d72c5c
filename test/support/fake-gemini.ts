// The Gemini generateContent API of the scripted native server: its reply bodies (a thought and thought
// signatures for Gemini 3 models, which always think) and the rule the real API enforces on them: a Gemini 3
// request's function calls carry the signatures their turns were issued with (400 INVALID_ARGUMENT otherwise).
// The SDK's skip-validation placeholder is refused too: it stands in for a signature that was dropped.
import { createHash } from 'node:crypto';
import type { Refusal } from './fake-anthropic.ts';
import type { NativeReply } from './fake-native.ts';

type Part = Record<string, unknown>;

const issued = new Set<string>();

const sign = (seed: string): string => {
  const signature = `gsig-${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
  issued.add(signature);
  return signature;
};

export const thinksAlways = (model: string): boolean => /gemini-(\d+)/.test(model) && Number(/gemini-(\d+)/.exec(model)![1]) >= 3;

/** What the real API refuses in a Gemini 3 request, or null. */
export const geminiRefusal = (model: string, body: Record<string, unknown>): Refusal | null => {
  if (!thinksAlways(model)) return null;
  const contents = (body.contents ?? []) as { role: string; parts: Part[] }[];
  for (const [i, c] of contents.entries()) {
    if (c.role !== 'model') continue;
    for (const [j, p] of c.parts.entries()) {
      if (p.functionCall === undefined) continue;
      const signature = p.thoughtSignature;
      if (typeof signature !== 'string' || !issued.has(signature)) {
        const name = (p.functionCall as { name?: string }).name;
        return {
          status: 400,
          message: `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(name)}\` , position ${i + 1}.${j + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
        };
      }
    }
  }
  return null;
};

export const geminiErrorBody = (message: string, status: number) => ({
  error: { code: status, message, status: status === 400 ? 'INVALID_ARGUMENT' : status === 401 || status === 403 ? 'PERMISSION_DENIED' : 'INTERNAL' },
});

export const geminiBody = (model: string, reply: Exclude<NativeReply, { kind: 'error' }>, n: number) => {
  const thinks = thinksAlways(model);
  const thought = thinks && reply.reasoning !== undefined ? [{ text: reply.reasoning, thought: true }] : [];
  const signature = thinks ? { thoughtSignature: sign(`${model}/${n}`) } : {};
  const answer = reply.kind === 'text' ? { text: reply.text, ...signature } : { functionCall: { name: reply.name, args: reply.input }, ...signature };
  return {
    candidates: [{ content: { role: 'model', parts: [...thought, answer] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 6, totalTokenCount: 18 + (thinks ? 5 : 0), ...(thinks ? { thoughtsTokenCount: 5 } : {}) },
    modelVersion: model,
  };
};
