import { DecisionRequestDto } from '@stdreg/contracts';
import { createValidationPipe, DomainError } from '@stdreg/server-kit';
import { parseDecisionRequest } from './decision-request';

const ORG = '01900000-0000-7000-8000-00000000000a';
const valid = { credential: { kind: 'api_key', value: 'stdreg_app_x' }, action: 'split-project:read', resource: { organizationId: ORG } };
const long = (n: number) => 'x'.repeat(n);

const BODIES: [string, unknown][] = [
  ['a complete body', valid],
  ['an empty resource', { ...valid, resource: {} }],
  ['a project id', { ...valid, resource: { projectId: 'p-1' } }],
  ['null optional fields', { ...valid, resource: { organizationId: null, projectId: null } }],
  ['an access token', { ...valid, credential: { kind: 'access_token', value: long(8192) } }],
  ['the longest action', { ...valid, action: long(100) }],
  ['an unknown credential kind', { ...valid, credential: { kind: 'password', value: 'x' } }],
  ['an empty credential value', { ...valid, credential: { kind: 'api_key', value: '' } }],
  ['a credential value too long', { ...valid, credential: { kind: 'api_key', value: long(8193) } }],
  ['a numeric credential value', { ...valid, credential: { kind: 'api_key', value: 42 } }],
  ['a credential that is a string', { ...valid, credential: 'stdreg_app_x' }],
  ['a credential that is an array', { ...valid, credential: [] }],
  ['no credential', { action: valid.action, resource: valid.resource }],
  ['an extra credential field', { ...valid, credential: { ...valid.credential, scheme: 'Bearer' } }],
  ['an empty action', { ...valid, action: '' }],
  ['an action too long', { ...valid, action: long(101) }],
  ['a numeric action', { ...valid, action: 7 }],
  ['no action', { credential: valid.credential, resource: valid.resource }],
  ['an organization that is not a UUID', { ...valid, resource: { organizationId: 'not-a-uuid' } }],
  ['a numeric organization', { ...valid, resource: { organizationId: 12 } }],
  ['an empty project id', { ...valid, resource: { projectId: '' } }],
  ['a project id too long', { ...valid, resource: { projectId: long(201) } }],
  ['an extra resource field', { ...valid, resource: { organizationId: ORG, tenant: 'x' } }],
  ['a resource that is null', { ...valid, resource: null }],
  ['no resource', { credential: valid.credential, action: valid.action }],
  ['an extra top-level field', { ...valid, extra: 1 }],
  ['an audience', { ...valid, audience: 'https://platform.example.com/mcp' }],
  ['an empty audience', { ...valid, audience: '' }],
  ['an audience too long', { ...valid, audience: long(2001) }],
  ['agent scopes', { ...valid, scope: 'registry:read projects:draft' }],
  ['the shortest nonce', { ...valid, nonce: long(16) }],
  ['the longest nonce', { ...valid, nonce: long(128) }],
  ['a nonce too short', { ...valid, nonce: long(15) }],
  ['a nonce too long', { ...valid, nonce: long(129) }],
  ['an unknown scope', { ...valid, scope: 'registry:read settlement:post' }],
  ['scopes with a trailing space', { ...valid, scope: 'registry:read ' }],
  ['a numeric scope', { ...valid, scope: 3 }],
  ['several faults at once', { credential: { kind: 'password', value: 'x' }, action: 'split-project:read', resource: {}, extra: 1 }],
  ['an empty object', {}],
];

/** The fields the global class-validator pipe rejects for a body, or null when it accepts it. */
async function classValidatorFields(body: unknown): Promise<string[] | null> {
  try {
    await createValidationPipe().transform(body, { type: 'body', metatype: DecisionRequestDto });
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return [...new Set((error.errors ?? []).map((e) => e.field))].sort();
  }
}

function handWrittenFields(body: unknown): string[] | null {
  try {
    parseDecisionRequest(body);
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(error.errors!.every((e) => e.message.length > 0)).toBe(true);
    return [...new Set(error.errors!.map((e) => e.field))].sort();
  }
}

describe('the hand-written decision body check', () => {
  it.each(BODIES)('accepts and rejects %s exactly as DecisionRequestDto does', async (_, body) => {
    expect(handWrittenFields(body)).toEqual(await classValidatorFields(body));
  });

  it('accepts the valid bodies and rejects the others', async () => {
    const accepted = BODIES.filter(([, body]) => handWrittenFields(body) === null).map(([name]) => name);
    expect(accepted).toEqual([
      'a complete body',
      'an empty resource',
      'a project id',
      'null optional fields',
      'an access token',
      'the longest action',
      'an audience',
      'agent scopes',
      'the shortest nonce',
      'the longest nonce',
    ]);
  });

  it('names every faulty field of a body at once', () => {
    expect(
      handWrittenFields({ credential: { kind: 'password', value: 'x' }, action: 'split-project:read', resource: {}, extra: 1 }),
    ).toEqual(['credential.kind', 'extra']);
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, 'text', 3, [valid]]) expect(handWrittenFields(body)).toEqual(['body']);
  });
});
