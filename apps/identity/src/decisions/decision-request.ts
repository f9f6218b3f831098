import { isIn, isObject, isString, isUUID, length, matches } from 'class-validator';
import { AGENT_SCOPE_LIST, CREDENTIAL_KINDS, type DecisionRequestDto, type FieldError } from '@stdreg/contracts';
import { decisionRequestInvalid } from './decisions.errors';

type Check = (value: unknown, field: string) => string | null;

const optional =
  (check: Check): Check =>
  (value, field) =>
    value === undefined || value === null ? null : check(value, field);
const string =
  (min: number, max: number): Check =>
  (value, field) => {
    if (!isString(value)) return `${field} must be a string`;
    return length(value, min, max) ? null : `${field} must be ${min} to ${max} characters long`;
  };
const oneOf =
  (allowed: readonly string[]): Check =>
  (value, field) =>
    isIn(value, allowed) ? null : `${field} must be one of the following values: ${allowed.join(', ')}`;
const uuid: Check = (value, field) => (isUUID(value) ? null : `${field} must be a UUID`);
const agentScopes: Check = (value, field) =>
  isString(value) && matches(value, AGENT_SCOPE_LIST) ? null : `${field} must be agent scopes separated by spaces`;

const CREDENTIAL_FIELDS: Record<string, Check> = { kind: oneOf(CREDENTIAL_KINDS), value: string(1, 8192) };
const RESOURCE_FIELDS: Record<string, Check> = { organizationId: optional(uuid), projectId: optional(string(1, 200)) };

/**
 * The decision body, checked by hand: it is the hottest route of the platform, and class-validator with
 * class-transformer cost a sizeable share of a decision. The rules are DecisionRequestDto's, field for
 * field (the decision-request spec runs both on the same bodies), and so are the error fields.
 */
export function parseDecisionRequest(body: unknown): DecisionRequestDto {
  const errors: FieldError[] = [];
  if (!isObject(body)) {
    errors.push({ field: 'body', message: 'the body must be a JSON object' });
  } else {
    const fields = body as Record<string, unknown>;
    checkNested(fields, 'credential', CREDENTIAL_FIELDS, errors);
    const actionError = string(1, 100)(fields['action'], 'action');
    if (actionError) errors.push({ field: 'action', message: actionError });
    checkNested(fields, 'resource', RESOURCE_FIELDS, errors);
    const topLevel: Record<string, Check> = {
      nonce: optional(string(16, 128)),
      audience: optional(string(1, 2000)),
      scope: optional(agentScopes),
    };
    for (const [field, check] of Object.entries(topLevel)) {
      const message = check(fields[field], field);
      if (message) errors.push({ field, message });
    }
    rejectUnknown(fields, ['credential', 'action', 'resource', ...Object.keys(topLevel)], '', errors);
  }
  if (errors.length > 0) throw decisionRequestInvalid(errors);
  return body as DecisionRequestDto;
}

function checkNested(parent: Record<string, unknown>, name: string, checks: Record<string, Check>, errors: FieldError[]): void {
  const value = parent[name];
  if (!isObject(value)) {
    errors.push({ field: name, message: `${name} must be an object` });
    return;
  }
  const fields = value as Record<string, unknown>;
  for (const [field, check] of Object.entries(checks)) {
    const message = check(fields[field], field);
    if (message) errors.push({ field: `${name}.${field}`, message });
  }
  rejectUnknown(fields, Object.keys(checks), `${name}.`, errors);
}

function rejectUnknown(fields: Record<string, unknown>, known: string[], prefix: string, errors: FieldError[]): void {
  for (const field of Object.keys(fields)) {
    if (!known.includes(field)) errors.push({ field: `${prefix}${field}`, message: `${field} is not an accepted field` });
  }
}
