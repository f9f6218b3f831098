/**
 * A background worker's loop (identity's webhook dispatcher, standards-api's event relay): runs `round`
 * again at once while it finds work, after `intervalMs` when it found none, sooner when woken. A round
 * that throws is reported and retried after the interval; `stop` waits for the round under way.
 */
export class PollingLoop {
  private running: Promise<void> | null = null;
  private stopped = false;
  private wakeUp: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly round: () => Promise<boolean>,
    private readonly intervalMs: number,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Starts the loop; `subscribe` (optional) hands it a way to be woken and answers how to stop that. */
  start(subscribe?: (wake: () => void) => () => void): this {
    this.unsubscribe = subscribe?.(() => this.wake()) ?? null;
    this.running ??= this.loop();
    return this;
  }

  /** There may be work: end the wait (a change commits just after it says so, hence the short delay). */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.stopped = true;
    this.wakeUp?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let busy = false;
      try {
        busy = await this.round();
      } catch (error) {
        this.onError(error as Error);
      }
      if (!busy && !this.stopped) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.intervalMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => setTimeout(done, 5);
    });
  }
}
