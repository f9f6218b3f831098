import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type SyncCountsDto,
  type SyncOutcome,
  SyncRecordDto,
  type SyncRecordResultDto,
  type SyncRequestDto,
  type SyncResultDto,
} from '@stdreg/contracts';
import { flattenValidationErrors } from '@stdreg/server-kit';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { actorOf, keyKindOf, type KeyCaller } from '../../access/callers/caller';
import { eventActorOf, PartnerEventsService } from '../../platform/outbox/events.service';
import { RegisteredAppsService } from '../../partners/registered-apps/registered-apps.service';
import { type MirrorChange, UsersService } from '../users/users.service';
import { agentKeyMayNotDelete } from '../users/users.errors';
import { SubjectChange, SubjectChanges } from '../../access/subject-changes/subject-changes';

type CheckedRecord = { index: number; record: SyncRecordDto } | { index: number; rejected: SyncRecordResultDto };

/**
 * A partner's push of its user mirror for one registry: the records checked here, every valid one
 * applied by UsersService in one call and one transaction, the batch audited with it.
 */
@Injectable()
export class SyncService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly apps: RegisteredAppsService,
    private readonly audit: AuditService,
    private readonly events: PartnerEventsService,
    private readonly subjectChanges: SubjectChanges,
  ) {}

  async apply(request: SyncRequestDto, caller: KeyCaller): Promise<SyncResultDto> {
    if (keyKindOf(caller).kind === 'agent' && request.records.some((record) => record['deleted'] === true)) throw agentKeyMayNotDelete();
    const app = await this.apps.requireUsable(request.registryId, caller);
    const checked = await checkRecords(request.records);
    const rejectedCount = checked.filter((entry) => 'rejected' in entry).length;
    const actor = actorOf(caller);
    if (request.atomic && rejectedCount > 0) {
      const reason = `not applied: the batch is atomic and ${rejectedCount} record(s) in it were rejected`;
      const results = checked.map((entry) =>
        'rejected' in entry ? entry.rejected : rejectedResult(entry.index, entry.record.externalId, reason),
      );
      return this.finish(actor, request, app.organizationId, results, false, this.dataSource.manager);
    }
    const changes = checked.flatMap((entry) => ('record' in entry ? [mirrorChange(entry.index, entry.record)] : []));
    // A deleted record can take its unified user with it, and with it any signed-in session of that person.
    return this.subjectChanges.apply(deletedPeople, (write) =>
      this.dataSource.transaction(async (manager) => {
        const applied = new Map(
          (await this.users.applyBatch(manager, request.registryId, changes, actor, write)).map((result) => [result.index, result]),
        );
        const results = checked.map((entry) => ('rejected' in entry ? entry.rejected : applied.get(entry.index)!));
        const result = await this.finish(actor, request, app.organizationId, results, true, manager);
        if (app.organizationId) {
          await this.events.record(manager, {
            type: 'users.synced',
            organizationId: app.organizationId,
            resource: `registry:${request.registryId}`,
            actor: eventActorOf(actor),
            data: { registryId: request.registryId, applied: true, records: results.length, ...result.counts },
          });
        }
        return result;
      }),
    );
  }

  private async finish(
    actor: Actor,
    request: SyncRequestDto,
    organizationId: string | null,
    results: SyncRecordResultDto[],
    applied: boolean,
    manager: EntityManager,
  ): Promise<SyncResultDto> {
    const count = (outcome: SyncOutcome) => results.filter((result) => result.outcome === outcome).length;
    const counts: SyncCountsDto = {
      created: count('created'),
      updated: count('updated'),
      unchanged: count('unchanged'),
      deleted: count('deleted'),
      rejected: count('rejected'),
    };
    const changed = counts.created + counts.updated + counts.deleted > 0;
    await this.audit.record(
      actor,
      {
        action: 'sync.apply',
        target: request.registryId,
        organizationId,
        outcome: applied ? 'success' : 'failure',
        detail: { applied, changed, atomic: request.atomic ?? false, records: results.length, ...counts },
      },
      manager,
    );
    return { registryId: request.registryId, applied, changed, counts, results };
  }
}

/**
 * Validates each record on its own, in request order; a record repeating an earlier valid
 * record's externalId is rejected, as the batch cannot say which of the two is meant.
 */
async function checkRecords(records: Record<string, unknown>[]): Promise<CheckedRecord[]> {
  const firstIndexOf = new Map<string, number>();
  const checked: CheckedRecord[] = [];
  for (const [index, raw] of records.entries()) {
    const record = plainToInstance(SyncRecordDto, raw);
    const errors = await validate(record, {
      whitelist: true,
      forbidNonWhitelisted: true,
      stopAtFirstError: false,
      validationError: { target: false, value: false },
    });
    const externalId = typeof raw['externalId'] === 'string' ? raw['externalId'] : null;
    if (errors.length > 0) {
      checked.push({
        index,
        rejected: rejectedResult(
          index,
          externalId,
          flattenValidationErrors(errors)
            .map((e) => e.message)
            .join('; '),
        ),
      });
      continue;
    }
    const first = firstIndexOf.get(record.externalId);
    if (first !== undefined) {
      checked.push({ index, rejected: rejectedResult(index, externalId, `duplicates externalId of record ${first}`) });
      continue;
    }
    firstIndexOf.set(record.externalId, index);
    checked.push({ index, record });
  }
  return checked;
}

function mirrorChange(index: number, record: SyncRecordDto): MirrorChange {
  const { externalId, email, emailVerified, displayName, locale } = record;
  return { index, externalId, fields: { email, emailVerified, displayName, locale }, deleted: record.deleted === true };
}

function rejectedResult(index: number, externalId: string | null, reason: string): SyncRecordResultDto {
  return { index, externalId, outcome: 'rejected', reason };
}

function deletedPeople(synced: SyncResultDto): SubjectChange | null {
  const uids = synced.results.flatMap((result) => (result.outcome === 'deleted' && result.uid ? [result.uid] : []));
  return uids.length > 0 ? SubjectChange.people(...uids) : null;
}
