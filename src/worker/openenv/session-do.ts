// The Durable Object that holds one OpenEnv WebSocket session, through the hibernation API: the runtime keeps
// the socket while the object is evicted between messages, so an idle session costs no memory. The session
// (tenant, key, episode, step) is the socket's attachment; every message is handled by messages.ts. The
// session is an object of its own rather than its episode's because a reset moves the socket to a new episode
// and a socket cannot move between objects; each message is one call on to the episode's object.
import { DurableObject } from 'cloudflare:workers';
import { dumpsPy } from '../../core/py/index.ts';
import type { PyInput } from '../../core/py/index.ts';
import type { OpenEnvServerMessage } from '../../api/openenv.ts';
import { utf8Length } from '../../core/schemas/text-bytes.ts';
import { limits } from '../tenancy/limits.ts';
import { handleMessage } from './messages.ts';
import { SessionSchema } from './session-state.ts';
import type { Session } from './session-state.ts';
import { MessageQueue } from './message-queue.ts';
import type { QueueBounds } from './message-queue.ts';
import { holdSocket, releaseSocket, SOCKET_LEASE_RENEW_MS } from './socket-gate.ts';
import { noteObjectLoaded } from '../live-objects.ts';

/** The header the Worker hands the authenticated session to the object in (never a client's). */
export const SESSION_HEADER = 'x-tau2-edge-openenv-session';

const queueFull = (bounds: QueueBounds): OpenEnvServerMessage => ({
  type: 'error',
  data: {
    code: 'CAPACITY_REACHED',
    message: `Too many messages waiting in this session: at most ${bounds.messages} (LIMIT_MAX_SOCKET_QUEUE) of at most ${bounds.bytes} bytes (LIMIT_MAX_SOCKET_QUEUE_BYTES); wait for answers before sending more`,
  },
});

export class OpenEnvSessionDO extends DurableObject<Env> {
  private readonly queue = new MessageQueue();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    noteObjectLoaded(ctx.id);
  }

  override async fetch(request: Request): Promise<Response> {
    const session = SessionSchema.parse(JSON.parse(request.headers.get(SESSION_HEADER) ?? 'null'));
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(session);
    // The socket's place among its tenant's (taken by the upgrade) lapses unless renewed.
    await this.ctx.storage.setAlarm(Date.now() + SOCKET_LEASE_RENEW_MS);
    return new Response(null, { status: 101, webSocket: client });
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const bytes = typeof message === 'string' ? utf8Length(message) : message.byteLength;
    const limit = limits(this.env);
    const bounds = { messages: limit.LIMIT_MAX_SOCKET_QUEUE, bytes: limit.LIMIT_MAX_SOCKET_QUEUE_BYTES };
    const taken = this.queue.take(bytes, bounds, async () => {
      const { session, reply, close } = await handleMessage(this.env, SessionSchema.parse(ws.deserializeAttachment()), message);
      ws.serializeAttachment(session);
      if (reply !== null) ws.send(dumpsPy(reply as unknown as PyInput));
      if (close !== null) ws.close(close, close === 1000 ? 'closed' : 'API key revoked');
    });
    if (taken === null) ws.send(dumpsPy(queueFull(bounds) as unknown as PyInput));
    return taken ?? Promise.resolve();
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    const session = SessionSchema.parse(ws.deserializeAttachment());
    // The client went away: the socket is closed from this side too (its episode stays, as a dropped HTTP client's).
    ws.close(code === 1005 || code === 1006 ? 1000 : code, 'closed');
    await this.leave(session);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.leave(SessionSchema.parse(ws.deserializeAttachment()));
  }

  /** Renews the open socket's place among its tenant's; one that lost it (its lease lapsed and was taken) is closed. */
  override async alarm(): Promise<void> {
    const [ws] = this.ctx.getWebSockets();
    if (ws === undefined) return;
    const { tenant, id } = SessionSchema.parse(ws.deserializeAttachment());
    if (!(await holdSocket(this.env, tenant, id))) {
      ws.close(1013, 'Too many sockets open for this tenant (LIMIT_MAX_SOCKETS_PER_TENANT)');
      return;
    }
    await this.ctx.storage.setAlarm(Date.now() + SOCKET_LEASE_RENEW_MS);
  }

  private async leave({ tenant, id }: Session): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await releaseSocket(this.env, tenant, id);
  }
}
