// Runs only when the test run has Redis (see jest.config.cjs): two replicas' channels on one real Redis, the
// writer's through a proxy the test cuts, as when one replica's connections to Redis drop and come back.
import { randomBytes } from 'node:crypto';
import type { SubjectChangeDto } from '@stdreg/contracts';
import { JsonLogger } from '@stdreg/server-kit';
import { CuttableProxy } from '@stdreg/server-kit/testing';
import { SubjectChangeChannel } from '../../src/access/subject-changes/subject-change-channel';
import type { IdentityConfig } from '../../src/platform/config/identity.config';

const REDIS_URL = process.env['REDIS_URL']!;
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const logger = new JsonLogger('identity', 'fatal');
const change = { keyIds: ['a-revoked-key'], personUids: [], accessTokens: false };

let proxy: CuttableProxy;
let writer: SubjectChangeChannel;
let reader: SubjectChangeChannel;

/** `settleLimitMs` long by default: a write that answers has had every stream's word. */
function channel(redisUrl: string, settleLimitMs = 60_000): SubjectChangeChannel {
  const config = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix } as IdentityConfig;
  const created = new SubjectChangeChannel(config, logger, settleLimitMs);
  created.onModuleInit();
  return created;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 100 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!condition()) throw new Error(`still waiting for ${what}`);
}

beforeAll(async () => {
  proxy = await CuttableProxy.start(REDIS_URL);
  writer = channel(proxy.through(REDIS_URL));
  reader = channel(REDIS_URL);
  await until(() => writer.up && reader.up, 'both channels to subscribe');
});
afterAll(async () => {
  writer?.onApplicationShutdown();
  reader?.onApplicationShutdown();
  await proxy?.close();
});

describe("the subject-change channel between identity's replicas", () => {
  it('carries a change written while the writer is still reconnecting to the replica that stayed connected', async () => {
    const heard: SubjectChangeDto[] = [];
    const closed: string[] = [];
    const stream = reader.listen({
      change: (c) => {
        heard.push(c);
        reader.applied({ streamId: stream.streamId, changeId: c.changeId });
      },
      closed: () => closed.push('reader'),
    })!;
    writer.listen({ change: () => undefined, closed: () => closed.push('writer') });
    await proxy.cut();
    await until(() => !writer.up, 'the writer to see Redis gone');
    await proxy.restore();
    // At once, before the writer's connections are back: the reader never lost Redis, so its services
    // reuse allows, and only this change can tell them the key is revoked.
    await writer.publish(change);
    await until(() => heard.length > 0, 'the reader to hear the change');
    expect(heard).toEqual([{ changeId: expect.any(String), ...change }]);
    expect(closed).toEqual(['writer']);
    stream.stop();
  });

  it("answers a write once every replica's streams have applied its change, whichever replica hears that", async () => {
    const heard: SubjectChangeDto[] = [];
    const onReader = reader.listen({ change: (c) => heard.push(c), closed: () => undefined })!;
    const onWriter = writer.listen({ change: (c) => heard.push(c), closed: () => undefined })!;
    try {
      let answered = false;
      const publishing = writer.publish(change).then(() => (answered = true));
      await until(() => heard.length === 2, 'both streams to hear the change');
      const [changeId] = new Set(heard.map((c) => c.changeId));
      // The reader's stream says so to the writer, the writer's to the reader: each passes the word on.
      writer.applied({ streamId: onReader.streamId, changeId: changeId! });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(answered).toBe(false);
      reader.applied({ streamId: onWriter.streamId, changeId: changeId! });
      await publishing;
    } finally {
      onReader.stop();
      onWriter.stop();
    }
  });

  it('answers a write whose change a stream never says it applied once its limit has passed (no allow from before it is reused by then)', async () => {
    const hasty = channel(REDIS_URL, 300);
    const silent = reader.listen({ change: () => undefined, closed: () => undefined })!;
    try {
      await until(() => hasty.up, 'the third channel to subscribe');
      const started = Date.now();
      await hasty.publish(change);
      expect(Date.now() - started).toBeGreaterThanOrEqual(295);
    } finally {
      silent.stop();
      hasty.onApplicationShutdown();
    }
  });

  it('answers a write when no stream is open, and when the only one ends before applying its change', async () => {
    await writer.publish(change);
    const ending = reader.listen({ change: () => ending.stop(), closed: () => undefined })!;
    await writer.publish(change);
  });
});
