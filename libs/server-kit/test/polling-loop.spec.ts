import { jest } from '@jest/globals';
import { MAX_FAILURE_BACKOFF_MS, PollingLoop } from '../src/background/polling-loop';

/** A round that fails while `away` is set, and counts when it ran (in fake milliseconds). */
function target() {
  const state = { away: true, rounds: [] as number[], errors: 0 };
  const round = async () => {
    state.rounds.push(Date.now());
    if (state.away) throw new Error('away');
    return false;
  };
  return { state, round };
}

describe('PollingLoop', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('backs off after failed rounds, doubling up to the cap, and wakes do not cut the wait short', async () => {
    const { state, round } = target();
    const loop = new PollingLoop(round, 100, () => state.errors++).start();
    for (let ms = 0; ms < 1_000; ms += 10) {
      loop.wake();
      await jest.advanceTimersByTimeAsync(10);
    }
    // Rounds at 0, then after 100, 200 and 400 ms: not one per wake.
    expect(state.rounds).toEqual([0, 100, 300, 700]);
    await jest.advanceTimersByTimeAsync(10 * MAX_FAILURE_BACKOFF_MS);
    const gaps = state.rounds.slice(1).map((at, i) => at - state.rounds[i]!);
    expect(Math.max(...gaps)).toBe(MAX_FAILURE_BACKOFF_MS);
    expect(state.errors).toBe(state.rounds.length);
    await loop.stop();
  });

  it('polls at its interval again once a round succeeds, and is woken sooner then', async () => {
    const { state, round } = target();
    const loop = new PollingLoop(round, 100, () => state.errors++).start();
    await jest.advanceTimersByTimeAsync(350);
    state.away = false;
    await jest.advanceTimersByTimeAsync(400); // the back-off's round at 700 succeeds
    const recovered = state.rounds.length;
    await jest.advanceTimersByTimeAsync(100);
    expect(state.rounds.length).toBe(recovered + 1);
    loop.wake();
    await jest.advanceTimersByTimeAsync(10);
    expect(state.rounds.length).toBe(recovered + 2);
    await loop.stop();
  });

  it('stops at once during a back-off', async () => {
    const { state, round } = target();
    const loop = new PollingLoop(round, 100, () => state.errors++).start();
    await jest.advanceTimersByTimeAsync(10 * MAX_FAILURE_BACKOFF_MS);
    const rounds = state.rounds.length;
    await loop.stop();
    await jest.advanceTimersByTimeAsync(10 * MAX_FAILURE_BACKOFF_MS);
    expect(state.rounds.length).toBe(rounds);
  });
});
