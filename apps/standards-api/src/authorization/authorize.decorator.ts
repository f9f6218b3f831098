import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiServiceUnavailableResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { ORGANIZATION_HEADER, ProblemDetailsDto, type Action, type DecisionSubjectDto } from '@stdreg/contracts';
import { AuthorizationGuard } from './authorization.guard';

export const REQUIRED_ACTION = Symbol('REQUIRED_ACTION');

/** What identity allowed: who is acting, and for which organization. */
export interface Authorization {
  subject: DecisionSubjectDto;
  organizationId: string;
}

export type AuthorizedRequest = Request & { authorization?: Authorization };

/**
 * The route is protected: identity must allow `action` for the caller's credential in the
 * organization named by X-Organization-Id before the handler (and so the database) is reached.
 */
export function Authorize(action: Action): MethodDecorator {
  return applyDecorators(
    SetMetadata(REQUIRED_ACTION, action),
    UseGuards(AuthorizationGuard),
    ApiBearerAuth('credential'),
    ApiHeader({ name: ORGANIZATION_HEADER, required: true, description: 'The organization the request acts in (uuid)' }),
    ApiUnauthorizedResponse({
      description:
        'No credential, or one identity does not know (unknown, expired, revoked, for another audience: ' +
        '`WWW-Authenticate: Bearer error="invalid_token"`); or, for a formal write, a sign-in older than identity allows: `WWW-Authenticate: Bearer ' +
        'error="insufficient_user_authentication", max_age=<seconds>` (RFC 9470), and the person signs in again',
      type: ProblemDetailsDto,
    }),
    ApiForbiddenResponse({ description: `identity denied ${action}`, type: ProblemDetailsDto }),
    ApiNotFoundResponse({ description: 'No such resource in this organization', type: ProblemDetailsDto }),
    ApiServiceUnavailableResponse({
      description: 'authorization_unavailable: identity could not be asked; nothing was done',
      type: ProblemDetailsDto,
    }),
  );
}

export const Authorized = createParamDecorator((_: unknown, context: ExecutionContext): Authorization => {
  const authorization = context.switchToHttp().getRequest<AuthorizedRequest>().authorization;
  if (!authorization) throw new Error('Authorized used on a route without @Authorize');
  return authorization;
});

/** `<kind>:<id>`, as `createdBy` and `postedBy` show it; an agent's is followed by its supervisor (AGT-1). */
export function actorOf(authorization: Authorization): string {
  const { kind, id, supervisorId } = authorization.subject;
  return kind === 'agent' ? `agent:${id} supervised by human:${supervisorId}` : `${kind}:${id}`;
}
