import { Injectable } from '@nestjs/common';

const WINDOW_MS = 60_000;

interface Window {
  openedAt: number;
  refused: number;
}

/**
 * Refusals of credentials nobody was issued (made-up keys, forged tokens), counted per service and
 * action: the first in a minute is written to the audit log, carrying how many were refused since the
 * previous row; the rest of that minute only count. One stranger cannot grow the log without bound,
 * and no refusal goes uncounted.
 */
@Injectable()
export class RefusalTally {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one refusal; answers the count to write (this one and those held back since) when a row is due, else null. */
  count(key: string): number | null {
    const now = this.now();
    const window = this.windows.get(key);
    if (window && now - window.openedAt < WINDOW_MS) {
      window.refused += 1;
      return null;
    }
    this.windows.set(key, { openedAt: now, refused: 0 });
    return 1 + (window?.refused ?? 0);
  }

  /**
   * A count `count` answered whose row could not be written: it is held again, with those counted since,
   * and the next refusal writes them all at once rather than a minute later.
   */
  unwritten(key: string, refused: number): void {
    const since = this.windows.get(key)?.refused ?? 0;
    this.windows.set(key, { openedAt: Number.NEGATIVE_INFINITY, refused: refused + since });
  }
}
