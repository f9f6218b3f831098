import { Injectable } from '@nestjs/common';
import type { ForwardedCredentialDto } from '@stdreg/contracts';
import { AccessTokenVerifier } from './access-token-verifier';
import type { DecisionSubject } from './decision-subject';
import { KeyAuthentication, type KeyIdentity } from './key-authentication';

/** A credential a service forwards to the decision endpoint (a key, or a person's or agent's access token), as a subject. */
@Injectable()
export class ForwardedCredentials {
  constructor(
    private readonly keys: KeyAuthentication,
    private readonly accessTokens: AccessTokenVerifier,
  ) {}

  /** `audience`: the resource the asking service is; absent, the standards API. */
  async subjectOf(credential: ForwardedCredentialDto, audience: string | undefined): Promise<DecisionSubject | 'invalid_credential'> {
    if (credential.kind === 'access_token') return this.accessTokens.subjectOf(credential.value, audience);
    return (await this.keys.subjectOf(credential.value)) ?? 'invalid_credential';
  }

  /** The key a refused credential names when identity issued it (revoked, rotated out, a wrong secret); null otherwise. */
  refusedKey(credential: ForwardedCredentialDto): Promise<Pick<KeyIdentity, 'keyPrefix' | 'keyClass' | 'agentSupervisorUid'> | null> {
    return credential.kind === 'api_key' ? this.keys.refusedKey(credential.value) : Promise.resolve(null);
  }
}
