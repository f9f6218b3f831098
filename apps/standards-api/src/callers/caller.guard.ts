import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthorizationClient, forwardedCredential } from '@stdreg/authz-client';
import { AUTHENTICATION_TOO_OLD, INVALID_CREDENTIAL, MAX_CREDENTIAL_LENGTH, MAX_RESOURCE_ID_LENGTH, type Action } from '@stdreg/contracts';
import { isUuid } from '@stdreg/server-kit';
import type { CallerRequest } from './caller';
import {
  authorizationUnavailable,
  credentialInvalid,
  credentialMissing,
  credentialTooLong,
  denied,
  organizationMissing,
  projectIdTooLong,
  recentSignInRequired,
} from './callers.errors';

/** What a route requires of its caller (set by @Authorize). */
export interface CallerRequirement {
  action: Action;
  /** The route parameter that names the split project the request is about, when it names one. */
  projectParam?: string;
}

export const CALLER_REQUIREMENT = Symbol('CALLER_REQUIREMENT');

/**
 * Authenticates every kind of caller (API key, a person's or an agent's access token) by asking identity
 * before anything else happens; every failure to get an allow stops the request.
 */
@Injectable()
export class CallerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(AuthorizationClient) private readonly client: AuthorizationClient,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { action, projectParam } = this.reflector.get<CallerRequirement>(CALLER_REQUIREMENT, context.getHandler());
    const request = context.switchToHttp().getRequest<Request & CallerRequest>();
    const credential = forwardedCredential(request.headers.authorization);
    if (!credential) throw credentialMissing();
    const organizationId = request.headers['x-organization-id'];
    if (!isUuid(organizationId)) throw organizationMissing();
    if (credential.value.length > MAX_CREDENTIAL_LENGTH) throw credentialTooLong();
    const param = projectParam === undefined ? undefined : request.params[projectParam];
    const projectId = typeof param === 'string' ? param : undefined;
    if (projectId !== undefined && projectId.length > MAX_RESOURCE_ID_LENGTH) throw projectIdTooLong();
    const answer = await this.client.ask({
      credential,
      action,
      resource: { organizationId: organizationId.toLowerCase(), ...(projectId === undefined ? {} : { projectId }) },
    });
    if (answer.decision === 'deny') {
      if (answer.unavailable) throw authorizationUnavailable();
      if (answer.reason === AUTHENTICATION_TOO_OLD) throw recentSignInRequired(answer.maxAge);
      if (answer.reason === INVALID_CREDENTIAL) throw credentialInvalid();
      throw denied(answer.reason);
    }
    request.caller = { subject: answer.subject, organizationId: organizationId.toLowerCase() };
    return true;
  }
}
