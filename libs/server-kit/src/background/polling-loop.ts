/** The longest wait after failed rounds: what a loop whose target stays away settles at. */
export const MAX_FAILURE_BACKOFF_MS = 30_000;

/**
 * A background worker's loop (identity's webhook dispatcher, standards-api's event relay): runs `round`
 * again at once while it finds work, after `intervalMs` when it found none, sooner when woken. A round
 * that throws is reported and retried after a back-off that doubles with each failure in a row (from
 * `intervalMs` up to MAX_FAILURE_BACKOFF_MS, or the interval if longer), and wakes do not cut that wait short: a target that is away
 * is not asked again for every change that commits meanwhile. `stop` waits for the round under way.
 */
export class PollingLoop {
  private running: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;
  private wakeUp: (() => void) | null = null;
  private interrupt: (() => void) | null = null;
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
    this.interrupt?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let busy = false;
      try {
        busy = await this.round();
        this.failures = 0;
      } catch (error) {
        this.failures++;
        this.onError(error as Error);
      }
      if (this.stopped) break;
      if (this.failures > 0) await this.sleep(this.backoffMs(), false);
      else if (!busy) await this.sleep(this.intervalMs, true);
    }
  }

  /** The wait after `failures` failed rounds in a row; never shorter than the interval. */
  private backoffMs(): number {
    return Math.min(this.intervalMs * 2 ** (this.failures - 1), Math.max(this.intervalMs, MAX_FAILURE_BACKOFF_MS));
  }

  private sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise((resolve) => {
      // A wake's delayed call can come after this sleep ended: it must not touch the next one's handlers.
      const done = () => {
        clearTimeout(timer);
        if (this.interrupt !== done) return;
        this.wakeUp = null;
        this.interrupt = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.interrupt = done;
      this.wakeUp = wakeable ? () => setTimeout(done, 5) : null;
    });
  }
}
