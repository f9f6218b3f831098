// What an agent does at the gateway (AGT-1), as one audit event on the log: the gateway keeps no database.
import type { DecisionSubjectDto } from '@stdreg/contracts';
import type { JsonLogger } from '@stdreg/server-kit';

export interface AgentAction {
  /** The tool called, or the resource read (its URI). */
  target: { tool: string } | { resource: string };
  organizationId: string | null;
  outcome: string;
}

/** Records `action` when identity's allow named an agent; a person's or an ordinary key's action is no agent's. */
export function recordAgentAction(logger: JsonLogger, subject: DecisionSubjectDto, action: AgentAction): void {
  if (subject.kind !== 'agent') return;
  logger.audit(
    'agent action',
    {
      actorKind: 'agent',
      agentId: subject.id,
      supervisorId: subject.supervisorId,
      ...(subject.keyPrefix === undefined ? {} : { keyPrefix: subject.keyPrefix }),
      ...action.target,
      organizationId: action.organizationId,
      outcome: action.outcome,
    },
    'AgentActions',
  );
}
