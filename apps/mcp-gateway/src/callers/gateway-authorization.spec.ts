import type { AuthorizationAnswer, AuthorizationClient, AuthorizationQuestion } from '@stdreg/authz-client';
import type { McpCaller } from './caller';
import { GatewayAuthorization } from './gateway-authorization';

/** An identity that allows every question, and the questions it was asked. */
function allowingIdentity(): { client: AuthorizationClient; asked: AuthorizationQuestion[] } {
  const asked: AuthorizationQuestion[] = [];
  const client = {
    ask: (question: AuthorizationQuestion): Promise<AuthorizationAnswer> => {
      asked.push(question);
      return Promise.resolve({
        decision: 'allow',
        reason: 'agent_scopes',
        subject: { kind: 'agent', id: 'agent-client', supervisorId: 'supervisor', scopes: ['registry:read'] },
      } as AuthorizationAnswer);
    },
  } as unknown as AuthorizationClient;
  return { client, asked };
}

const agentToken = { kind: 'access_token' as const, value: 'agent-token' };

describe("the questions the gateway asks identity about an agent's token", () => {
  it('asks with the tool’s scope for a call whose token was not admitted beforehand (identity away then)', async () => {
    const { client, asked } = allowingIdentity();
    const caller: McpCaller = {
      credential: agentToken,
      organizationId: null,
      organizationHeaderInvalid: false,
      ip: '10.0.0.1',
      admitted: null,
    };
    await new GatewayAuthorization(client).toolCall(caller, { scope: 'projects:draft', readOnly: false });
    expect(asked).toEqual([expect.objectContaining({ action: 'tool:call', scope: 'projects:draft' })]);
    expect(asked[0]).not.toHaveProperty('readOnly');
  });

  it('admits a request that drafts with a fresh question, never one whose allow may be reused', async () => {
    const { client, asked } = allowingIdentity();
    const authorization = new GatewayAuthorization(client);
    await authorization.admit(agentToken, ['registry:read', 'projects:draft']);
    await authorization.admit(agentToken, ['registry:read']);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ action: 'tool:call', scope: 'registry:read projects:draft' });
    expect(asked[0]).not.toHaveProperty('readOnly');
    expect(asked[1]).toMatchObject({ action: 'tool:call', scope: 'registry:read', readOnly: true });
  });
});
