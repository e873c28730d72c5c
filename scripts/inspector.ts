// A DevTools Protocol session with the local Worker's isolate, through workerd's inspector: `call` sends a
// method and resolves with its result; events go to `onEvent`.
interface Reply {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly message: string };
}

export interface InspectorSession {
  call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): void;
}

/** Connects to the Worker's isolate (the runtime lists its own services' isolates too; the Worker's is core:user:<name>). */
export const connectInspector = async (port: number, onEvent: (method: string, params: Record<string, unknown>) => void = () => {}): Promise<InspectorSession> => {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { id: string; webSocketDebuggerUrl: string }[];
  const target = targets.find((t) => t.id.startsWith('core:user:'));
  if (target === undefined) throw new Error(`The inspector on port ${port} lists no Worker isolate`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`The inspector WebSocket ${target.webSocketDebuggerUrl} did not open`));
  });
  let lastId = 0;
  const waiting = new Map<number, (reply: Reply) => void>();
  socket.onmessage = (event) => {
    const reply = JSON.parse(String(event.data)) as Reply;
    if (reply.method !== undefined) onEvent(reply.method, reply.params ?? {});
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply);
  };
  return {
    call: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++lastId;
        waiting.set(id, (reply) => {
          waiting.delete(id);
          if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
          else resolve(reply.result ?? {});
        });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
};
