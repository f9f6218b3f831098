// Who is calling standards-api, as identity's allow described them: framework-free, so services and
// repositories take a caller without knowing how it was authenticated (API key, person's or agent's token).
import type { DecisionSubjectDto } from '@stdreg/contracts';

/** What identity allowed: who is acting, and for which organization. */
export interface Caller {
  subject: DecisionSubjectDto;
  organizationId: string;
}

/** `<kind>:<id>`, as `createdBy` and `postedBy` show it; an agent's is followed by its supervisor (AGT-1). */
export function actorOf(caller: Caller): string {
  const { kind, id, supervisorId } = caller.subject;
  return kind === 'agent' ? `agent:${id} supervised by human:${supervisorId}` : `${kind}:${id}`;
}

/** An HTTP request after the caller guard let it through (structural, so this file needs no HTTP framework). */
export interface CallerRequest {
  caller?: Caller;
}
