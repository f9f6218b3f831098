import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCallback } from '../src/human-sign-in';
import { startWithNpmStart, type NpmStartPlatform } from '../src/npm-start';
import { dayOfWork, expectRestored, writeAfterBackup, type BeforeBackup } from '../src/restore-drill';

// CI runs this spec once, in the embedded run: it is about `npm start`'s DATA_DIR, which is the same in both runs.
// The operator's restore drill on the embedded default, as the README's "Back up and restore" section tells it: a cold
// backup (stop `npm start`, copy DATA_DIR, start again), then the platform started on the copy in another folder, on
// the same ports (the OIDC issuer names identity's), once the original is gone.
let original: NpmStartPlatform | undefined;
let restored: NpmStartPlatform | undefined;
let callback: Awaited<ReturnType<typeof startCallback>>;
let before: BeforeBackup | undefined;
let backups: string;

beforeAll(async () => {
  original = await startWithNpmStart();
  callback = await startCallback();
  backups = await mkdtemp(path.join(tmpdir(), 'stdreg-cold-backup-'));
}, 180_000);
afterAll(async () => {
  await before?.receiver.close();
  await callback?.close();
  await original?.stop();
  await restored?.stop();
  if (backups) await rm(backups, { recursive: true, force: true });
});

it('starts on a cold copy of DATA_DIR in another folder, and all that was issued before the backup works there', async () => {
  before = await dayOfWork(original!, callback.redirectUri);
  const copy = path.join(backups, 'data');
  await original!.coldBackup(copy);
  const afterBackup = await writeAfterBackup(original!, before);
  const { ports } = original!;
  await original!.stop();
  original = undefined;

  restored = await startWithNpmStart({}, { dataDir: copy, ports });

  await expectRestored(restored, before, afterBackup);
}, 150_000);
