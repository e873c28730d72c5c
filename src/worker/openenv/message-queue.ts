// The messages of one OpenEnv socket, handled one at a time in arrival order (as an OpenEnv server does), and
// bounded: a client that sends faster than its messages are handled would otherwise pile them up in the
// object's memory without end. The message being handled counts too; the first one is always taken, so a
// message over the byte bound alone still reaches the size check that names LIMIT_MAX_BODY_BYTES.

export interface QueueBounds {
  /** Messages taken and not yet answered. */
  readonly messages: number;
  /** Their UTF-8 bytes. */
  readonly bytes: number;
}

export class MessageQueue {
  private tail: Promise<void> = Promise.resolve();
  private messages = 0;
  private bytes = 0;

  /** Runs `handle` after the messages taken before it; null (nothing taken) when that would pass `bounds`. */
  take(bytes: number, bounds: QueueBounds, handle: () => Promise<void>): Promise<void> | null {
    if (this.messages > 0 && (this.messages >= bounds.messages || this.bytes + bytes > bounds.bytes)) return null;
    this.messages += 1;
    this.bytes += bytes;
    const handled = this.tail.then(handle).finally(() => {
      this.messages -= 1;
      this.bytes -= bytes;
    });
    this.tail = handled.catch(() => undefined);
    return handled;
  }
}
