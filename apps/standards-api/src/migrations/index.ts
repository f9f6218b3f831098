import { RegistryContent1763800000000 } from './1763800000000-registry-content';
import { SplitProjects1763950000000 } from './1763950000000-split-projects';
import { RuleVersions1763960000000 } from './1763960000000-rule-versions';
import { SettlementLedgers1763970000000 } from './1763970000000-settlement-ledgers';
import { Idempotency1763980000000 } from './1763980000000-idempotency';
import { SettlementPosting1764000000000 } from './1764000000000-settlement-posting';
import { WriteAuditSupervisor1764100000000 } from './1764100000000-write-audit-supervisor';
import { IdempotencyPerformed1764200000000 } from './1764200000000-idempotency-performed';
import { EventOutbox1764300000000 } from './1764300000000-event-outbox';
import { LedgerRunningBalance1764321000000 } from './1764321000000-ledger-running-balance';
import { RuleVersionInForce1764340000000 } from './1764340000000-rule-version-in-force';
import { RegistryRecordsByRelease1764400000000 } from './1764400000000-registry-records-by-release';
import { SearchIndexSnapshot1764500000000 } from './1764500000000-search-index-snapshot';
import { IdempotencyClaim1764600000000 } from './1764600000000-idempotency-claim';
import { EventOutboxParking1764700000000 } from './1764700000000-event-outbox-parking';
import { IdempotencyAnswerAsSent1764800000000 } from './1764800000000-idempotency-answer-as-sent';
import { WriteAuditRefusals1764900000000 } from './1764900000000-write-audit-refusals';
import { SplitProjectDiscarded1765000000010 } from './1765000000010-split-project-discarded';

/** Every migration of standards-api, in order. */
export const STANDARDS_API_MIGRATIONS = [
  RegistryContent1763800000000,
  SplitProjects1763950000000,
  RuleVersions1763960000000,
  SettlementLedgers1763970000000,
  Idempotency1763980000000,
  SettlementPosting1764000000000,
  WriteAuditSupervisor1764100000000,
  IdempotencyPerformed1764200000000,
  EventOutbox1764300000000,
  LedgerRunningBalance1764321000000,
  RuleVersionInForce1764340000000,
  RegistryRecordsByRelease1764400000000,
  SearchIndexSnapshot1764500000000,
  IdempotencyClaim1764600000000,
  EventOutboxParking1764700000000,
  IdempotencyAnswerAsSent1764800000000,
  WriteAuditRefusals1764900000000,
  SplitProjectDiscarded1765000000010,
];
