// The Durable Object that holds one OpenEnv WebSocket session, through the hibernation API: the runtime keeps
// the socket while the object is evicted between messages, so an idle session costs no memory. The session
// (tenant, key, episode, step) is the socket's attachment; every message is handled by session.ts. The
// session is an object of its own rather than its episode's because a reset moves the socket to a new episode
// and a socket cannot move between objects; each message is one call on to the episode's object.
import { DurableObject } from 'cloudflare:workers';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import { handleMessage, SessionSchema } from './session.ts';
import { noteObjectLoaded } from '../live-objects.ts';

/** The header the Worker hands the authenticated session to the object in (never a client's). */
export const SESSION_HEADER = 'x-tau2-edge-openenv-session';

export class OpenEnvSessionDO extends DurableObject<Env> {
  /** Messages of the socket in arrival order: one is handled at a time, as an OpenEnv server does. */
  private queue: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    noteObjectLoaded(ctx.id);
  }

  override fetch(request: Request): Response {
    const session = SessionSchema.parse(JSON.parse(request.headers.get(SESSION_HEADER) ?? 'null'));
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(session);
    return new Response(null, { status: 101, webSocket: client });
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const next = this.queue.then(async () => {
      const { session, reply, close } = await handleMessage(this.env, SessionSchema.parse(ws.deserializeAttachment()), message);
      ws.serializeAttachment(session);
      if (reply !== null) ws.send(dumpsPy(reply as unknown as PyInput));
      if (close !== null) ws.close(close, close === 1000 ? 'closed' : 'API key revoked');
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  override webSocketClose(ws: WebSocket, code: number): void {
    // The client went away: the socket is closed from this side too (its episode stays, as a dropped HTTP client's).
    ws.close(code === 1005 || code === 1006 ? 1000 : code, 'closed');
  }
}
