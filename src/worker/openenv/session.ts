// One OpenEnv session: what each client message does to the session's episode and what the server answers.
// The session is a small JSON value (kept as its WebSocket's attachment, so it survives hibernation); a
// message is handled by the same episode actions the step API uses (api/episode-actions.ts), so a session's
// episode is an episode like any other. A reset starts (or joins) an episode; the session then steps that one,
// by step messages or MCP's tools/call (mcp.ts).
import { z } from 'zod';
import { OpenEnvClientMessageSchema } from '../../core/schemas/openenv.ts';
import type { OpenEnvErrorCode, OpenEnvErrorData, OpenEnvServerMessage, OpenEnvState } from '../../core/schemas/openenv.ts';
import { parsePyJson } from '../../core/py/index.ts';
import { findActiveKeyById } from '../db/api-keys.ts';
import { episodeIdOf } from '../episode/launch.ts';
import { ApiError, isOverload, overloaded, zodIssues } from '../api/errors.ts';
import { EpisodeHandleSchema } from '../api/episode-actions.ts';
import { limits } from '../limits.ts';
import { act, resetEpisode, resultOf } from './actions.ts';
import { handleMcp } from './mcp.ts';

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

export interface Handled {
  readonly session: Session;
  readonly reply: OpenEnvServerMessage | null;
  /** Close the socket after the reply: with 1000 (the client's close) or 1008 (the key is no longer valid). */
  readonly close: 1000 | 1008 | null;
}

const error = (code: OpenEnvErrorCode, message: string, extra: Omit<OpenEnvErrorData, 'code' | 'message'> = {}): OpenEnvServerMessage => ({
  type: 'error',
  data: { message, code, ...extra },
});

/** A failed reset, step or state in OpenEnv's terms; the step API's status and code go along. */
const errorOf = (thrown: unknown, phase: 'reset' | 'step'): OpenEnvServerMessage => {
  const failure = !(thrown instanceof ApiError) && isOverload(thrown) ? overloaded() : thrown;
  if (!(failure instanceof ApiError)) {
    console.error('openenv session: unexpected failure', failure);
    return error('EXECUTION_ERROR', 'Internal error', { status: 500, reason: 'internal_error' });
  }
  const extra = { status: failure.status, reason: failure.code };
  if (failure.status === 400) return error('VALIDATION_ERROR', failure.message, { ...extra, errors: [...(failure.issues ?? [])] });
  if (failure.code === 'quota_exceeded' || failure.code === 'overloaded') return error('CAPACITY_REACHED', failure.message, extra);
  // A reset that yields no episode to play is OpenEnv's failure to make the session's environment.
  return error(phase === 'reset' ? 'FACTORY_ERROR' : 'EXECUTION_ERROR', failure.message, extra);
};

const stateOf = (session: Session): OpenEnvState => {
  const { episode } = session;
  return {
    episode_id: episode === null ? null : episodeIdOf(episode.key),
    step_count: session.step,
    run_id: episode?.run_id ?? null,
    task_id: episode?.task_id ?? null,
    trial: episode?.trial ?? null,
    done: session.done,
  };
};

/** Whether the key the session was opened with still holds (the operator's always does). */
const keyHolds = async (env: Env, session: Session): Promise<boolean> => session.key_id === null || (await findActiveKeyById(env.DB, session.key_id)) !== null;

const parseMessage = (text: string, maxBytes: number): { ok: true; value: unknown } | { ok: false; reply: OpenEnvServerMessage } => {
  if (text.length > maxBytes) return { ok: false, reply: error('VALIDATION_ERROR', `The message is over the limit of ${maxBytes} bytes (LIMIT_MAX_BODY_BYTES)`) };
  try {
    return { ok: true, value: parsePyJson(text) };
  } catch (failure) {
    return { ok: false, reply: error('INVALID_JSON', `Invalid JSON: ${failure instanceof Error ? failure.message : String(failure)}`) };
  }
};

/** Handles one client message. */
export const handleMessage = async (env: Env, session: Session, text: string | ArrayBuffer): Promise<Handled> => {
  const unchanged = (reply: OpenEnvServerMessage, close: Handled['close'] = null): Handled => ({ session, reply, close });
  if (!(await keyHolds(env, session))) return unchanged(error('SESSION_ERROR', 'The API key of this session was revoked'), 1008);
  if (typeof text !== 'string') return unchanged(error('INVALID_JSON', 'Invalid JSON: a binary message'));
  const json = parseMessage(text, limits(env).LIMIT_MAX_BODY_BYTES);
  if (!json.ok) return unchanged(json.reply);
  const type = (json.value as { type?: unknown } | null)?.type;
  if (!['reset', 'step', 'state', 'close', 'mcp'].includes(type as string)) return unchanged(error('UNKNOWN_TYPE', `Unknown message type: ${typeof type === 'string' ? type : JSON.stringify(type ?? '')}`));
  const parsed = OpenEnvClientMessageSchema.safeParse(json.value);
  if (!parsed.success) return unchanged(error('VALIDATION_ERROR', 'Invalid message', { errors: zodIssues(parsed.error) }));
  const message = parsed.data;
  switch (message.type) {
    case 'close':
      return { session, reply: null, close: 1000 };
    case 'state':
      return unchanged({ type: 'state', data: stateOf(session) });
    case 'reset':
      try {
        const { handle, opening } = await resetEpisode(env, session.tenant, message.data);
        const next: Session = { ...session, episode: handle, step: opening.step, done: opening.done };
        return { session: next, reply: { type: 'observation', data: resultOf(opening.episode_id, opening) }, close: null };
      } catch (failure) {
        return unchanged(errorOf(failure, 'reset'));
      }
    case 'step': {
      if (session.episode === null) return unchanged(error('EXECUTION_ERROR', 'No episode in this session: send a reset first', { status: 409, reason: 'conflict' }));
      try {
        const { result, stepped } = await act(env, session.episode, session.step, message.data);
        const next: Session = stepped === null ? session : { ...session, step: stepped.step, done: stepped.done };
        return { session: next, reply: { type: 'observation', data: result }, close: null };
      } catch (failure) {
        return unchanged(errorOf(failure, 'step'));
      }
    }
    case 'mcp': {
      const { session: next, response } = await handleMcp(env, session, message.data);
      return { session: next, reply: { type: 'mcp', data: response }, close: null };
    }
  }
};
