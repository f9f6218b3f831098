import { jest } from '@jest/globals';
import { JsonLogger } from '../src/logging/json-logger';
import { PeriodicPurge } from '../src/background/periodic-purge';

describe('PeriodicPurge', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('purges at start and then at its interval, logs a failed purge with its error and purges again later', async () => {
    const logger = new JsonLogger('test', 'error');
    const warnings: unknown[] = [];
    jest
      .spyOn(logger, 'event')
      .mockImplementation((level, message, fields, context) => void warnings.push([level, message, fields, context]));
    const purges: number[] = [];
    let failing = false;
    const purge = new PeriodicPurge(
      async () => {
        purges.push(Date.now());
        if (failing) throw new Error('relation "x" does not exist');
      },
      100,
      logger,
      { message: 'purging x failed', context: 'X' },
    );
    purge.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(250);
    expect(purges).toEqual([0, 100, 200]);
    failing = true;
    await jest.advanceTimersByTimeAsync(100);
    expect(warnings).toEqual([['warn', 'purging x failed', { error: 'Error: relation "x" does not exist' }, 'X']]);
    failing = false;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(purges.length).toBeGreaterThan(5);
    await purge.onApplicationShutdown();
  });

  it('waits at shutdown for the purge under way', async () => {
    let finish: () => void = () => undefined;
    const purge = new PeriodicPurge(() => new Promise<void>((resolve) => (finish = resolve)), 100, new JsonLogger('test', 'error'), {
      message: 'purging x failed',
      context: 'X',
    });
    purge.onApplicationBootstrap();
    let stopped = false;
    const stopping = purge.onApplicationShutdown().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(50);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });
});
