import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthorizationClient, forwardedCredential } from '@stdreg/authz-client';
import { AUTHENTICATION_TOO_OLD, INVALID_CREDENTIAL, MAX_CREDENTIAL_LENGTH, MAX_RESOURCE_ID_LENGTH, type Action } from '@stdreg/contracts';
import { DomainError, isUuid } from '@stdreg/server-kit';
import { REQUIRED_ACTION, type AuthorizedRequest } from './authorize.decorator';
import { recentSignInRequired } from './step-up';

/** The project a request is about, when its route names one (`/split-projects/:id/...`). */
function projectOf(request: AuthorizedRequest): { projectId?: string } {
  const id = request.params['id'];
  return typeof id === 'string' && request.path.includes(`/split-projects/${id}`) ? { projectId: id } : {};
}

/** Asks identity before anything else happens; every failure to get an allow stops the request. */
@Injectable()
export class AuthorizationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(AuthorizationClient) private readonly client: AuthorizationClient,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const action = this.reflector.get<Action>(REQUIRED_ACTION, context.getHandler());
    const request = context.switchToHttp().getRequest<AuthorizedRequest>();
    const credential = forwardedCredential(request.headers.authorization);
    if (!credential) {
      throw DomainError.of(
        'authorization.credential_missing',
        'A credential is required: Authorization: Bearer <API key or access token>.',
        {
          headers: {
            'WWW-Authenticate': 'Bearer realm="standards-api"',
          },
        },
      );
    }
    const organizationId = request.headers['x-organization-id'];
    if (!isUuid(organizationId)) {
      throw DomainError.of('authorization.organization_missing', 'Name the organization the request acts in.', {
        errors: [{ field: 'X-Organization-Id', message: 'X-Organization-Id must be an organization id (uuid)' }],
      });
    }
    if (credential.value.length > MAX_CREDENTIAL_LENGTH) {
      throw DomainError.of(
        'authorization.credential_too_long',
        `The credential is longer than any the platform issues (${MAX_CREDENTIAL_LENGTH} characters).`,
        {
          headers: {
            'WWW-Authenticate': 'Bearer realm="standards-api", error="invalid_token"',
          },
        },
      );
    }
    const project = projectOf(request);
    if (project.projectId !== undefined && project.projectId.length > MAX_RESOURCE_ID_LENGTH) {
      throw DomainError.of('split_projects.not_found', `No split project has an id longer than ${MAX_RESOURCE_ID_LENGTH} characters.`);
    }
    const answer = await this.client.ask({
      credential,
      action,
      resource: { organizationId: organizationId.toLowerCase(), ...project },
    });
    if (answer.decision === 'deny') {
      if (answer.unavailable) {
        throw DomainError.of('authorization.unavailable', 'Authorization could not be established; nothing was done. Retry later.');
      }
      if (answer.reason === AUTHENTICATION_TOO_OLD) throw recentSignInRequired(answer.maxAge);
      if (answer.reason === INVALID_CREDENTIAL) {
        throw DomainError.of(
          'authorization.credential_invalid',
          'The credential is not valid (invalid_credential): unknown, expired, revoked or for another audience.',
          {
            headers: { 'WWW-Authenticate': 'Bearer realm="standards-api", error="invalid_token"' },
          },
        );
      }
      throw DomainError.of('authorization.denied', `Not allowed: ${answer.reason}.`);
    }
    request.authorization = { subject: answer.subject, organizationId: organizationId.toLowerCase() };
    return true;
  }
}
