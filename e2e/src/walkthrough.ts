// The platform's story, played across the three real services over HTTP. The end-to-end test runs it
// against freshly launched built services; `node tools/walkthrough.mjs` runs it against `npm start`.
import { agentDrafts, agentReadsSettlement, agentRefusedActivation, connectAgent } from './agent-work';
import { auditSince, expectedAuditTrail, missingFromTrail } from './audit-trail';
import { launchBrowser, setPasswordAndSignIn, startCallback } from './human-sign-in';
import { eventsReceived, subscribeToEvents } from './partner-events';
import { grantApprovingRole, onboardPartner } from './partner-onboarding';
import { postSettlement } from './settlement-work';
import { activateAndSchedule, draftProject } from './split-project-work';
import { Story, type PlatformUrls } from './story';

export interface WalkthroughResult {
  story: Story;
  missingAudit: ReturnType<typeof missingFromTrail>;
}

export async function runWalkthrough(platform: PlatformUrls, print?: (line: string) => void): Promise<WalkthroughResult> {
  const run = Date.now().toString(36);
  const since = new Date(Date.now() - 1000).toISOString();
  const callback = await startCallback();
  const browser = await launchBrowser();
  const story = new Story(platform, callback.redirectUri, print);
  let receiver: Awaited<ReturnType<typeof subscribeToEvents>> | undefined;
  try {
    const partner = await onboardPartner(story, run);
    receiver = await subscribeToEvents(story, partner);
    const person = partner.users[7]!;
    const humanToken = await setPasswordAndSignIn(story, partner, person.email, browser.context);
    await grantApprovingRole(story, partner, person.uid);
    const project = await draftProject(story, humanToken, partner.organizationId, person.uid);

    const agent = await connectAgent(story, partner);
    try {
      await agentDrafts(story, agent, partner);
      await agentRefusedActivation(story, agent, partner, project);
      await activateAndSchedule(story, humanToken, partner.organizationId, project, person.uid);
      const settlement = await postSettlement(story, humanToken, partner.organizationId, project, person.uid);
      await agentReadsSettlement(story, agent, partner, settlement.id, project.projectId);
    } finally {
      await agent.close();
    }
    await eventsReceived(story, receiver, print);

    const missingAudit = missingFromTrail(await auditSince(story, since), expectedAuditTrail(story, partner, person.uid));
    story.step('audit log read', { actor: 'platform operator', missing: missingAudit.length });
    return { story, missingAudit };
  } finally {
    await receiver?.close();
    await browser.close();
    await callback.close();
  }
}
