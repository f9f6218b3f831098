import { startPlatform, type Platform } from '../src/platform';
import { runWalkthrough } from '../src/walkthrough';

let platform: Platform;

beforeAll(async () => {
  platform = await startPlatform();
}, 180_000);
afterAll(async () => {
  await platform?.stop();
});

// Longer than the database pool's default idle timeout (10 s), so every pooled connection the first
// run used is closed before the second run starts, as when `npm start` sits idle.
const IDLE_PAUSE_MS = 12_000;

describe(`the platform's story, across the three built services (${process.env['DATABASE_URL'] ? 'PostgreSQL and Redis' : 'one `npm start` on the embedded defaults'})`, () => {
  it('takes a partner from the waitlist to a posted settlement that an agent reads, with every step in the audit log', async () => {
    const { story, missingAudit } = await runWalkthrough(platform);
    expect(missingAudit).toEqual([]);
    expect(story.steps.map((step) => step.title)).toEqual(STORY);
  }, 240_000);

  it('plays the story again on the same platform after it sat idle and lost its database connections (server side, on PostgreSQL)', async () => {
    if (platform.databases === 'server') expect(await platform.dropDatabaseConnections()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, IDLE_PAUSE_MS));
    const { story, missingAudit } = await runWalkthrough(platform);
    expect(missingAudit).toEqual([]);
    expect(story.steps.map((step) => step.title)).toEqual(STORY);
  }, 240_000);
});

const STORY = [
  'waitlist request',
  'waitlist approved, app key issued',
  'app registered',
  '50 users synced',
  'webhook endpoint registered',
  'password set through the single-use link',
  'signed in through OIDC in Chromium',
  'project-owner role granted',
  'split project created',
  'scenario "Composer 35%" branched and revised',
  'scenario "Composer 40%" branched and revised',
  'three scenarios compared',
  'agent read the registry manifest',
  'agent resolved a term, validated the rules and drafted a project through MCP',
  'agent refused activation',
  'project activated after the two-step confirmation',
  'future rule version created',
  'settlement posted after the two-step confirmation',
  'agent read the posted settlement and had it explained',
  'partner events received, every signature verified',
  'audit log read',
];
