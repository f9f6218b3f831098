// The sixteen tools of SPEC.md part B, in the order tools/list shows them.
import { assessReadiness } from './people/assess-readiness.tool';
import { draftInvitation } from './people/draft-invitation.tool';
import { draftOnboardingProfile } from './people/draft-onboarding-profile.tool';
import { proposeTaskPath } from './people/propose-task-path.tool';
import { recommendRole } from './people/recommend-role.tool';
import { compareStandardVersions } from './registry/compare-standard-versions.tool';
import { draftAlignmentReport } from './registry/draft-alignment-report.tool';
import { resolveTerm } from './registry/resolve-term.tool';
import { validateStandardReference } from './registry/validate-standard-reference.tool';
import { validateTaskspec } from './registry/validate-taskspec.tool';
import { calculateDraftSettlement } from './splits/calculate-draft-settlement.tool';
import { compareRuleVersions } from './splits/compare-rule-versions.tool';
import { draftSplitProject } from './splits/draft-split-project.tool';
import { explainSettlement } from './splits/explain-settlement.tool';
import { simulateOperatingPlan } from './splits/simulate-operating-plan.tool';
import { validateSplitRule } from './splits/validate-split-rule.tool';
import type { GatewayTool } from './tool-definition';

export const TOOLS: readonly GatewayTool[] = [
  resolveTerm,
  validateStandardReference,
  validateTaskspec,
  compareStandardVersions,
  draftAlignmentReport,
  recommendRole,
  draftOnboardingProfile,
  assessReadiness,
  proposeTaskPath,
  simulateOperatingPlan,
  draftSplitProject,
  validateSplitRule,
  calculateDraftSettlement,
  explainSettlement,
  compareRuleVersions,
  draftInvitation,
];
