// Callers waiting inside an episode's object for its state to change: each is told by the change (every write to
// the episode's storage wakes them) rather than reading the episode again and again, and each has its deadline.
// They live in the instance's memory only: a waiter whose instance is reset gets its call failed, and asks again.

/** At most this many callers wait in one episode's object; one more is answered at once, as the episode stands. */
export const MAX_WAITERS = 16;

export class Waiters {
  private readonly wakers = new Set<() => void>();
  /** Counts the changes, so that one made while a waiter reads is not missed. */
  private changes = 0;

  /** How many callers wait now. */
  get size(): number {
    return this.wakers.size;
  }

  /** The episode's state changed: every waiter reads it again. */
  changed(): void {
    this.changes++;
    for (const wake of this.wakers) wake();
  }

  /**
   * What `read` answers once `ready` holds for it, read again after every change; or as it stands once `boundMs`
   * runs out, or at once when MAX_WAITERS already wait.
   */
  async until<T>(read: () => Promise<T>, ready: (value: T) => boolean, boundMs: number): Promise<T> {
    // A bound that is not a number is none (NaN would never be reached).
    const deadline = Date.now() + (Number.isNaN(boundMs) ? 0 : boundMs);
    for (;;) {
      const seen = this.changes;
      const value = await read();
      if (ready(value) || Date.now() >= deadline || this.wakers.size >= MAX_WAITERS) return value;
      if (this.changes === seen) await this.nextChange(deadline - Date.now());
    }
  }

  private nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }
}
