import { ACTIONS, ACTION_CATALOGUE } from '@stdreg/contracts';
import type { DecisionSubject } from '../access/callers/decision-subject';
import { decide } from './decision-policy';

const ORG = '01900000-0000-7000-8000-00000000000a';
const OTHER_ORG = '01900000-0000-7000-8000-00000000000b';
const platformKey: DecisionSubject = { kind: 'platform_key', keyId: 'k1', keyPrefix: 'aaaaaaaaaa' };
const appKey: DecisionSubject = { kind: 'app_key', keyId: 'k2', keyPrefix: 'bbbbbbbbbb', organizationId: ORG };
const human = (roles: { role: string; organizationId: string | null }[]): DecisionSubject => ({ kind: 'human', uid: 'u1', roles });
const formalActions = ACTIONS.filter((a) => ACTION_CATALOGUE[a].formal);
const draftingActions = ACTIONS.filter((a) => !ACTION_CATALOGUE[a].formal && ACTION_CATALOGUE[a].organizationScoped);

describe('the decision policy', () => {
  it('names three formal writes in the catalogue', () => {
    expect(formalActions.sort()).toEqual(['rule-version:create', 'settlement-run:post', 'split-project:activate']);
  });

  it.each(formalActions)('denies %s to every API key, whatever its class or organization', (action) => {
    expect(decide(platformKey, action, { organizationId: ORG })).toEqual({ decision: 'deny', reason: 'human_required' });
    expect(decide(appKey, action, { organizationId: ORG })).toEqual({ decision: 'deny', reason: 'human_required' });
  });

  it.each(formalActions)('allows %s to a human with an approving role in that organization only', (action) => {
    const approver = human([{ role: 'settlement-approver', organizationId: ORG }]);
    expect(decide(approver, action, { organizationId: ORG })).toEqual({ decision: 'allow', reason: 'role:settlement-approver' });
    expect(decide(approver, action, { organizationId: OTHER_ORG })).toEqual({ decision: 'deny', reason: 'role_required' });
    expect(decide(human([{ role: 'scenario-modeller', organizationId: ORG }]), action, { organizationId: ORG }).decision).toBe('deny');
  });

  it.each(formalActions)('denies %s to a person who signed in longer ago than the limit, once the role allows it', (action) => {
    const approver = (authTime?: number): DecisionSubject => ({
      ...human([{ role: 'project-owner', organizationId: ORG }]),
      ...(authTime === undefined ? {} : { authTime }),
    });
    const freshness = { maxAgeSeconds: 300, nowSeconds: 10_000 };
    expect(decide(approver(9_700), action, { organizationId: ORG }, freshness)).toEqual({
      decision: 'allow',
      reason: 'role:project-owner',
    });
    expect(decide(approver(9_699), action, { organizationId: ORG }, freshness)).toEqual({
      decision: 'deny',
      reason: 'authentication_too_old',
      maxAge: 300,
    });
    expect(decide(approver(), action, { organizationId: ORG }, freshness)).toMatchObject({ reason: 'authentication_too_old' });
    expect(decide(approver(9_000), action, { organizationId: OTHER_ORG }, freshness)).toEqual({
      decision: 'deny',
      reason: 'role_required',
    });
    expect(decide(approver(9_000), 'split-project:read', { organizationId: ORG }, freshness).decision).toBe('allow');
  });

  it.each(draftingActions)('allows %s to an app key in its own organization only, and to a platform key', (action) => {
    expect(decide(appKey, action, { organizationId: ORG })).toEqual({ decision: 'allow', reason: 'organization_key' });
    expect(decide(appKey, action, { organizationId: OTHER_ORG })).toEqual({ decision: 'deny', reason: 'organization_mismatch' });
    expect(decide(appKey, action, {})).toEqual({ decision: 'deny', reason: 'organization_required' });
    expect(decide(platformKey, action, { organizationId: OTHER_ORG })).toEqual({ decision: 'allow', reason: 'platform_key' });
  });

  it('allows a tool call to any valid key or signed-in user, whatever the organization', () => {
    expect(decide(appKey, 'tool:call', {})).toEqual({ decision: 'allow', reason: 'valid_key' });
    expect(decide(appKey, 'tool:call', { organizationId: OTHER_ORG })).toEqual({ decision: 'allow', reason: 'valid_key' });
    expect(decide(platformKey, 'tool:call', {}).decision).toBe('allow');
    expect(decide(human([]), 'tool:call', {})).toEqual({ decision: 'allow', reason: 'signed_in_user' });
  });

  it('lets a global role count in every organization', () => {
    const auditor = human([{ role: 'external-auditor', organizationId: null }]);
    expect(decide(auditor, 'split-project:read', { organizationId: OTHER_ORG }).decision).toBe('allow');
    expect(decide(auditor, 'split-project:draft', { organizationId: OTHER_ORG })).toEqual({ decision: 'deny', reason: 'role_required' });
  });

  it('denies an unknown action to everyone', () => {
    for (const subject of [platformKey, appKey, human([{ role: 'project-owner', organizationId: null }])]) {
      expect(decide(subject, 'split-project:delete-everything', { organizationId: ORG })).toEqual({
        decision: 'deny',
        reason: 'unknown_action',
      });
    }
  });
});
