// The built standards-api on a database and data folder of its own, asking a fake identity (FakeIdentity) in
// this test's process: what the gateway's specs of identity's answers stand on.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, startBuiltService } from '@stdreg/server-kit/testing';

export interface StandardsApiBesideFake {
  url: string;
  stop(): Promise<void>;
}

/** `name`: a word for the database and the data folder (e.g. `matrix`). */
export async function startStandardsApiBesideFake(identityUrl: string, name: string): Promise<StandardsApiBesideFake> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `stdreg-${name}-standards-`));
  const database = await createTestDatabase(`standards_for_${name}`);
  const port = await freePort();
  const service = await startBuiltService('standards-api', port, {
    STANDARDS_API_PORT: String(port),
    DATA_DIR: dataDir,
    IDENTITY_URL: identityUrl,
    IDENTITY_SERVICE_TOKEN: 'test-service-token-0123456789abcdef',
    // The fake identity answers from the test's process, slow on a loaded machine.
    AUTHZ_TIMEOUT_MS: '5000',
    // The fake identity answers decisions only; nothing here is about partner events.
    EVENT_RELAY: 'off',
    ...(database.kind === 'server' ? database.env : {}),
  }).catch(async (error: unknown) => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: service.url,
    async stop() {
      await service.stop();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
