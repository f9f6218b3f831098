import { startWithNpmStart, type NpmStartPlatform } from '../src/npm-start';

// `npm start` runs tools/start.mjs under a shell; a supervisor's SIGTERM to npm kills that shell and is not
// passed on. The platform must stop when the shell is gone, not go on holding its ports and databases.
let platform: NpmStartPlatform;
beforeAll(async () => {
  platform = await startWithNpmStart({}, { underShell: true });
}, 180_000);
afterAll(async () => {
  await platform?.stop();
});

async function listening(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/readyz`);
    return true;
  } catch {
    return false;
  }
}

it('stops every service once the shell npm ran it in is gone', async () => {
  const urls = [platform.identityUrl, platform.standardsApiUrl, new URL(platform.mcpUrl).origin];
  for (const url of urls) expect(await listening(url)).toBe(true);
  platform.killShell();
  // Until the services have stopped (the test's time limit is the bound).
  while ((await Promise.all(urls.map(listening))).some(Boolean)) await new Promise((resolve) => setTimeout(resolve, 250));
  for (const url of urls) expect(await listening(url)).toBe(false);
}, 60_000);
