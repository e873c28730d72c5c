// One OpenEnv session: what each client message does to the session's episode and what the server answers.
// The session is a small JSON value (kept as its WebSocket's attachment, so it survives hibernation); a
// message is handled by the episode service the step API also calls (episode/service.ts), so a session's
// episode is an episode like any other. A reset starts (or joins) an episode; the session then steps that one,
// by step messages or MCP's tools/call (mcp.ts).
import { OpenEnvClientMessageSchema } from '../../api/openenv.ts';
import type { OpenEnvErrorCode, OpenEnvErrorData, OpenEnvServerMessage, OpenEnvState } from '../../api/openenv.ts';
import { utf8Length } from '../../core/schemas/text-bytes.ts';
import { parseClientJson } from '../client-json.ts';
import { findActiveKeyById } from '../db/api-keys.ts';
import { episodeIdOf } from '../episode/launch.ts';
import { zodIssues } from '../../core/schemas/issues.ts';
import type { Refusal } from '../episode/refusals.ts';
import { isRefused, overloadRefusal } from '../episode/refusals.ts';
import { openEnvCode, refusalData } from './refusals.ts';
import { limits } from '../tenancy/limits.ts';
import { act, resetEpisode, resultOf } from './actions.ts';
import { handleMcp } from './mcp.ts';
import type { Session } from './session-state.ts';

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

/** A refused reset or step in OpenEnv's terms; the step API's status and code go along. */
const refusedWith = (refusal: Refusal, phase: 'reset' | 'step'): OpenEnvServerMessage => {
  const { message, ...extra } = refusalData(refusal);
  return error(openEnvCode(refusal, phase), message, extra);
};

/** A reset or step that failed unexpectedly (a bug or an outage, not a refusal). */
const unexpected = (failure: unknown, phase: 'reset' | 'step'): OpenEnvServerMessage => {
  // The runtime out of a resource is capacity to ask for again, not a defect.
  const overload = overloadRefusal(failure);
  if (overload !== null) return refusedWith(overload, phase);
  console.error('openenv session: unexpected failure', failure);
  return error('EXECUTION_ERROR', 'Internal error', { status: 500, reason: 'internal_error' });
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

/** A message read as an HTTP body is: its UTF-8 bytes within LIMIT_MAX_BODY_BYTES, then the one JSON rule. */
const parseMessage = (text: string, maxBytes: number): { ok: true; value: unknown } | { ok: false; reply: OpenEnvServerMessage } => {
  if (utf8Length(text) > maxBytes) return { ok: false, reply: error('VALIDATION_ERROR', `The message is over the limit of ${maxBytes} bytes (LIMIT_MAX_BODY_BYTES)`) };
  const json = parseClientJson(text);
  if (json.ok) return json;
  if (json.fault === 'syntax') return { ok: false, reply: error('INVALID_JSON', `Invalid JSON: ${json.issue.message}`) };
  return { ok: false, reply: error('VALIDATION_ERROR', 'Invalid message', { errors: [json.issue] }) };
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
        const opened = await resetEpisode(env, session.tenant, message.data);
        if (isRefused(opened)) return unchanged(refusedWith(opened, 'reset'));
        const { handle, opening } = opened;
        const next: Session = { ...session, episode: handle, step: opening.step, done: opening.done };
        return { session: next, reply: { type: 'observation', data: resultOf(opening.episode_id, opening) }, close: null };
      } catch (failure) {
        return unchanged(unexpected(failure, 'reset'));
      }
    case 'step': {
      if (session.episode === null) return unchanged(error('EXECUTION_ERROR', 'No episode in this session: send a reset first', { status: 409, reason: 'conflict' }));
      try {
        const acted = await act(env, session.episode, session.step, message.data);
        if (isRefused(acted)) return unchanged(refusedWith(acted, 'step'));
        const { result, stepped } = acted;
        const next: Session = stepped === null ? session : { ...session, step: stepped.step, done: stepped.done };
        return { session: next, reply: { type: 'observation', data: result }, close: null };
      } catch (failure) {
        return unchanged(unexpected(failure, 'step'));
      }
    }
    case 'mcp': {
      const { session: next, response } = await handleMcp(env, session, message.data);
      return { session: next, reply: { type: 'mcp', data: response }, close: null };
    }
  }
};
