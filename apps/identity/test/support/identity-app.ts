import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { KeyClass, type IssuedKeyDto } from '@stdreg/contracts';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServiceApp, loadConfig } from '@stdreg/server-kit';
import { startTestService, type RunningTestService } from '@stdreg/server-kit/testing';
import { IdentityConfig } from '../../src/platform/config/identity.config';
import { IDENTITY } from '../../src/identity.service';
import { KeysService } from '../../src/access/keys/keys.service';

export const SERVICE_TOKEN = `test-${randomBytes(24).toString('base64url')}`;

export interface RunningIdentity extends RunningTestService {
  dataSource: DataSource;
  /** A platform key made directly (the bootstrap path is tested on its own). */
  platformKey: string;
  /** A fresh app key for a fresh organization, through the API. */
  newAppKey(options?: { maxApps?: number }): Promise<IssuedKeyDto & { organizationId: string }>;
  /** One more registered app: of a fresh app key (and organization), or of `key`'s organization when given. */
  newRegistry(key?: string): Promise<{ key: string; registryId: string }>;
  redisPrefix: string;
}

/**
 * The real identity service on its own database; Redis when REDIS_URL is set (CI), the in-process
 * rate-limit store otherwise. Every run gets its own Redis key prefix.
 */
export async function startIdentity(env: Record<string, string> = {}): Promise<RunningIdentity> {
  const redisPrefix = `test:${randomBytes(6).toString('hex')}:`;
  const redisUrl = process.env['REDIS_URL'];
  const running = await startTestService(IDENTITY, {
    BOOTSTRAP_PLATFORM_KEY: 'off',
    DECISION_SERVICE_TOKENS: `standards-api:${SERVICE_TOKEN}`,
    REDIS_KEY_PREFIX: redisPrefix,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...env,
  });
  const dataSource = running.app.get(DataSource);
  const platform = await dataSource.transaction((manager) =>
    running.app
      .get(KeysService)
      .issue(manager, { name: 'test platform', keyClass: KeyClass.Platform, organizationId: null }, { kind: 'system', id: 'test' }),
  );
  const platformKey = platform.secret;
  const newAppKey: RunningIdentity['newAppKey'] = async (options = {}) => {
    const organization = await request(running.server)
      .post('/v1/organizations')
      .set('Authorization', `Bearer ${platformKey}`)
      .send({ name: `Org ${randomBytes(3).toString('hex')}` })
      .expect(201);
    const issued = await request(running.server)
      .post('/v1/keys')
      .set('Authorization', `Bearer ${platformKey}`)
      .send({
        name: 'test app key',
        class: 'app',
        organizationId: organization.body.id,
        ...(options.maxApps ? { maxApps: options.maxApps } : {}),
      })
      .expect(201);
    return { ...(issued.body as IssuedKeyDto), organizationId: organization.body.id as string };
  };
  return {
    ...running,
    dataSource,
    platformKey,
    redisPrefix,
    newAppKey,
    async newRegistry(key?: string) {
      const secret = key ?? (await newAppKey()).secret;
      const { body } = await request(running.server)
        .post('/v1/apps')
        .set('Authorization', `Bearer ${secret}`)
        .send({ name: 'Portal', type: 'Traditional', redirectUris: ['https://portal.example/callback'] })
        .expect(201);
      return { key: secret, registryId: body.app.registryId as string };
    },
  };
}

/** Another identity instance on `identity`'s database and Redis prefix, as a second replica would be. */
export async function startReplica(identity: RunningIdentity, env: Record<string, string> = {}): Promise<NestExpressApplication> {
  const config = loadConfig(IdentityConfig, {
    LOG_LEVEL: 'error',
    BOOTSTRAP_PLATFORM_KEY: 'off',
    REDIS_URL: process.env['REDIS_URL']!,
    REDIS_KEY_PREFIX: identity.redisPrefix,
    DECISION_SERVICE_TOKENS: `standards-api:${SERVICE_TOKEN}`,
    ...identity.database.env,
    ...env,
  });
  const replica = await createServiceApp(IDENTITY, config);
  await replica.init();
  return replica;
}

/** Undoes the migrations applied after `name` and `name` itself: the schema as it was before that migration. */
export async function undoMigrationsThrough(dataSource: DataSource, name: string): Promise<void> {
  for (;;) {
    const [last] = (await dataSource.query('SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1')) as { name: string }[];
    if (!last) throw new Error(`migration ${name} was never applied`);
    await dataSource.undoLastMigration();
    if (last.name === name) return;
  }
}
