// The state of one OpenEnv session: a small JSON value kept as its WebSocket's attachment (so it survives
// hibernation), read by the message handler (messages.ts) and MCP (mcp.ts).
import { z } from 'zod';
import { EpisodeHandleSchema } from '../episode/handle.ts';

export const SessionSchema = z.object({
  /** The session's id (its object's), which MCP's openenv/session/create answers. */
  id: z.string(),
  tenant: z.string(),
  /** The tenant key the socket was opened with (null: the operator's), checked again before every message. */
  key_id: z.string().nullable(),
  episode: EpisodeHandleSchema.nullable(),
  /** The turn the next step answers. */
  step: z.number().int().nonnegative(),
  done: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;

export const newSession = (id: string, tenant: string, keyId: string | null): Session => ({ id, tenant, key_id: keyId, episode: null, step: 0, done: false });
