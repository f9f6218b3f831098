/**
 * The action catalogue: every action another service may ask identity about, whether it is a
 * formal (authoritative) write that only a human may perform, and which roles allow it. Role names
 * are the registry's roles; a global role binding counts in every organization.
 */
export const APPROVING_ROLES = ['project-owner', 'settlement-approver', 'finance-controller'] as const;
const DRAFTING_ROLES = ['project-owner', 'scenario-modeller', 'finance-controller'] as const;
const READING_ROLES = [
  ...APPROVING_ROLES,
  'scenario-modeller',
  'revenue-participant',
  'investor',
  'legal-entity-representative',
  'external-auditor',
  'compliance-officer',
  'agent-supervisor',
] as const;

export interface ActionDefinition {
  /** Formal writes are authoritative: a human user's token is required, never an API key. */
  formal: boolean;
  /** Whether an API key (app or platform class) may ever be allowed this action. */
  keysAllowed: boolean;
  /** Whether the action happens inside one organization (the resource names it); otherwise any valid credential may. */
  organizationScoped: boolean;
  roles: readonly string[];
  description: string;
}

export const ACTION_CATALOGUE = {
  'organization:read': {
    formal: false,
    keysAllowed: true,
    organizationScoped: true,
    roles: READING_ROLES,
    description: 'Read an organization',
  },
  'split-project:read': {
    formal: false,
    keysAllowed: true,
    organizationScoped: true,
    roles: READING_ROLES,
    description: 'Read split projects, scenarios, comparisons and rule versions',
  },
  'split-project:draft': {
    formal: false,
    keysAllowed: true,
    organizationScoped: true,
    roles: DRAFTING_ROLES,
    description: 'Create split projects, branch and revise scenarios, compare',
  },
  'split-project:activate': {
    formal: true,
    keysAllowed: false,
    organizationScoped: true,
    roles: APPROVING_ROLES,
    description: 'Activate Rule Version 1',
  },
  'rule-version:create': {
    formal: true,
    keysAllowed: false,
    organizationScoped: true,
    roles: APPROVING_ROLES,
    description: 'Create a future-effective rule version',
  },
  'settlement-run:read': {
    formal: false,
    keysAllowed: true,
    organizationScoped: true,
    roles: READING_ROLES,
    description: 'Read settlement runs',
  },
  'settlement-run:post': {
    formal: true,
    keysAllowed: false,
    organizationScoped: true,
    roles: APPROVING_ROLES,
    description: 'Post a settlement run and its equity entries',
  },
  'equity-ledger:read': {
    formal: false,
    keysAllowed: true,
    organizationScoped: true,
    roles: READING_ROLES,
    description: 'Read equity ledgers',
  },
  'tool:call': {
    formal: false,
    keysAllowed: true,
    organizationScoped: false,
    roles: [],
    description: 'Call a tool of the tool gateway (what the tool reads or drafts is authorized again by its own action)',
  },
} as const satisfies Record<string, ActionDefinition>;

export type Action = keyof typeof ACTION_CATALOGUE;
export const ACTIONS = Object.keys(ACTION_CATALOGUE) as Action[];

export function isAction(value: string): value is Action {
  return Object.prototype.hasOwnProperty.call(ACTION_CATALOGUE, value);
}

export function actionDefinition(action: Action): ActionDefinition {
  return ACTION_CATALOGUE[action];
}
