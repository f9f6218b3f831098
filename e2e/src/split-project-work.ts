// Chapter 3 of the walkthrough: the signed-in person drafts a Split Project, branches and revises
// scenarios, compares three of them; later activates it and schedules a future rule version, both
// formal writes that an agent's key is refused.
import type { CreatedSplitProjectDto, OperatingScenarioDto, RuleVersionDto, ScenarioComparisonDto } from '@stdreg/contracts';
import { call } from './http';
import { expectHumanAuthor, type Story } from './story';

export interface DraftedProject {
  projectId: string;
  baselineId: string;
  scenarioIds: string[];
}

/** A scenario of the walkthrough's co-production: a platform fee, then a revenue share. */
export function walkthroughScenario(): Record<string, unknown> {
  return {
    currency: 'EUR',
    periods: [
      { periodId: '2026-01', revenue: '10000.00', costs: '1200.00' },
      { periodId: '2026-02', revenue: '12500.00', costs: '1300.50' },
    ],
    participants: [
      { participantId: 'platform', name: { en: 'Platform', 'zh-Hans': '平台' }, legalEntityId: 'LEI-WALK-PLATFORM' },
      { participantId: 'studio', name: { en: 'Studio', 'zh-Hans': '工作室' }, legalEntityId: 'LEI-WALK-STUDIO' },
      { participantId: 'composer', name: { en: 'Composer', 'zh-Hans': '作曲家' }, legalEntityId: 'LEI-WALK-COMPOSER' },
    ],
    tiers: [
      {
        tierId: 'platform-fee',
        kind: 'fixed',
        label: { en: 'Platform fee', 'zh-Hans': '平台费' },
        allocations: [{ participantId: 'platform', amount: '500.00' }],
      },
      {
        tierId: 'revenue-share',
        kind: 'percentage',
        label: { en: 'Revenue share', 'zh-Hans': '收入分成' },
        shares: [
          { participantId: 'studio', basisPoints: 7000 },
          { participantId: 'composer', basisPoints: 3000 },
        ],
      },
    ],
  };
}

export async function draftProject(story: Story, humanToken: string, organizationId: string, uid: string): Promise<DraftedProject> {
  const actor = `user ${uid}`;
  const api = `${story.platform.standardsApiUrl}/api/v2`;
  const asHuman = { token: humanToken, organizationId };
  const created = await call<CreatedSplitProjectDto>('POST', `${api}/split-projects`, {
    ...asHuman,
    body: {
      name: 'Co-production split',
      currency: 'EUR',
      templateVersion: '1.0',
      scenario: { name: 'Baseline', content: walkthroughScenario() },
    },
    expect: 201,
  });
  const projectId = created.body.project.id;
  expectHumanAuthor(created.body.project.createdBy, uid, 'the project');
  const baselineId = created.body.scenario.id;
  story.step('split project created', { actor, projectId, createdBy: created.body.project.createdBy });

  const scenarioIds = [baselineId];
  for (const [name, composerShare] of [
    ['Composer 35%', 3500],
    ['Composer 40%', 4000],
  ] as const) {
    const branch = await call<OperatingScenarioDto>('POST', `${api}/split-projects/${projectId}/scenarios`, {
      ...asHuman,
      body: { fromScenarioId: baselineId, name },
      expect: 201,
    });
    const current = await call<OperatingScenarioDto>('GET', `${api}/operating-scenarios/${branch.body.id}`, { ...asHuman, expect: 200 });
    const shares = [
      { participantId: 'studio', basisPoints: 10_000 - composerShare },
      { participantId: 'composer', basisPoints: composerShare },
    ];
    const tiers = (walkthroughScenario()['tiers'] as Record<string, unknown>[]).map((tier) =>
      tier['tierId'] === 'revenue-share' ? { ...tier, shares } : tier,
    );
    const revised = await call<OperatingScenarioDto>('PATCH', `${api}/operating-scenarios/${branch.body.id}`, {
      ...asHuman,
      headers: { 'content-type': 'application/merge-patch+json', 'if-match': current.headers.get('etag')! },
      body: { tiers },
      expect: 200,
    });
    scenarioIds.push(revised.body.id);
    story.step(`scenario "${name}" branched and revised`, { actor, scenarioId: revised.body.id, revision: revised.body.revision });
  }

  const comparison = await call<ScenarioComparisonDto>('POST', `${api}/split-projects/${projectId}/scenario-comparisons`, {
    ...asHuman,
    body: { scenarios: scenarioIds.map((scenarioId) => ({ scenarioId })) },
    expect: 200,
  });
  story.step('three scenarios compared', {
    actor,
    compared: comparison.body.scenarios.length,
    participants: comparison.body.participants.length,
  });
  return { projectId, baselineId, scenarioIds };
}

/** A formal write in two steps: the 428 challenge, then the same call with its single-use token. */
export async function confirmTwice<T>(
  url: string,
  token: string,
  organizationId: string,
  body: Record<string, unknown>,
): Promise<{ challenge: Record<string, unknown>; result: T }> {
  const first = await call<{ challenge: Record<string, unknown>; confirmationToken: string }>('POST', url, {
    token,
    organizationId,
    body,
    expect: 428,
  });
  const second = await call<T>('POST', url, {
    token,
    organizationId,
    body: { ...body, confirmationToken: first.body.confirmationToken },
    expect: 201,
  });
  return { challenge: first.body.challenge, result: second.body };
}

export async function activateAndSchedule(
  story: Story,
  humanToken: string,
  organizationId: string,
  project: DraftedProject,
  uid: string,
): Promise<void> {
  const actor = `user ${uid}`;
  const api = `${story.platform.standardsApiUrl}/api/v2`;
  const activation = await confirmTwice<RuleVersionDto>(`${api}/split-projects/${project.projectId}/activate`, humanToken, organizationId, {
    scenarioId: project.baselineId,
  });
  expectHumanAuthor(activation.result.createdBy, uid, 'Rule Version 1');
  story.step('project activated after the two-step confirmation', {
    actor,
    ruleVersion: activation.result.version,
    createdBy: activation.result.createdBy,
  });

  const effectiveFrom = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
  const next = await call<RuleVersionDto>('POST', `${api}/split-projects/${project.projectId}/rule-versions`, {
    token: humanToken,
    organizationId,
    body: { scenarioId: project.scenarioIds[1], effectiveFrom },
    expect: [201, 428],
  });
  const version =
    next.status === 201
      ? next.body
      : (
          await confirmTwice<RuleVersionDto>(`${api}/split-projects/${project.projectId}/rule-versions`, humanToken, organizationId, {
            scenarioId: project.scenarioIds[1],
            effectiveFrom,
          })
        ).result;
  expectHumanAuthor(version.createdBy, uid, 'the future rule version');
  story.step('future rule version created', { actor, ruleVersion: version.version, effectiveFrom: version.effectiveFrom });
}
