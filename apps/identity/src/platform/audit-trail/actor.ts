// Who an audit entry names as having acted: a plain type, so a caller's file can build one without the audit service.
import type { ActorKind } from '@stdreg/contracts';

export interface Actor {
  kind: ActorKind;
  id: string;
  /** For an agent: the person accountable for it, recorded in the entry's detail as `supervisor`. */
  supervisor?: string;
}
