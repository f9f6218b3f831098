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
import { type Actor, AuditService } from '../audit/audit.service';
import { actorOf, type KeyCaller } from '../callers/caller';
import { appNotFound, RegisteredAppsService } from '../registered-apps/registered-apps.service';
import type { UserMirrorRow } from '../users/users.repository';
import { hasSameFields, UsersService } from '../users/users.service';

type CheckedRecord = { index: number; record: SyncRecordDto } | { index: number; rejected: SyncRecordResultDto };

/** A partner's push of its user mirror for one registry: every record applied in one transaction. */
@Injectable()
export class SyncService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly records: UsersService,
    private readonly apps: RegisteredAppsService,
    private readonly audit: AuditService,
  ) {}

  async apply(request: SyncRequestDto, caller: KeyCaller): Promise<SyncResultDto> {
    await this.apps.requireUsable(request.registryId, caller);
    const checked = await checkRecords(request.records);
    const rejectedCount = checked.filter((entry) => 'rejected' in entry).length;
    const actor = actorOf(caller);
    if (request.atomic && rejectedCount > 0) {
      const reason = `not applied: the batch is atomic and ${rejectedCount} record(s) in it were rejected`;
      const results = checked.map((entry) =>
        'rejected' in entry ? entry.rejected : rejectedResult(entry.index, entry.record.externalId, reason),
      );
      return this.finish(actor, request, results, false, this.dataSource.manager);
    }
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.records.lockRegistry(manager, request.registryId))) throw appNotFound(request.registryId);
      const externalIds = checked.flatMap((entry) => ('record' in entry ? [entry.record.externalId] : []));
      const current = new Map(
        (await this.records.findByExternalIds(manager, request.registryId, externalIds)).map((row) => [row.external_id, row]),
      );
      const results: SyncRecordResultDto[] = [];
      for (const entry of checked) {
        if ('rejected' in entry) results.push(entry.rejected);
        else
          results.push(
            await this.applyRecord(manager, request.registryId, entry.index, entry.record, current.get(entry.record.externalId), actor),
          );
      }
      return this.finish(actor, request, results, true, manager);
    });
  }

  private async applyRecord(
    manager: EntityManager,
    registryId: string,
    index: number,
    record: SyncRecordDto,
    row: UserMirrorRow | undefined,
    actor: Actor,
  ): Promise<SyncRecordResultDto> {
    const { externalId } = record;
    const fields = { email: record.email, emailVerified: record.emailVerified, displayName: record.displayName, locale: record.locale };
    if (record.deleted) {
      if (!row) return { index, externalId, outcome: 'unchanged' };
      await this.records.deleteRecord(manager, row, actor, 'sync');
      return { index, externalId, outcome: 'deleted', uid: row.uid };
    }
    if (!row) {
      const created = await this.records.createRecord(manager, { registryId, externalId, ...fields }, actor, 'sync');
      return { index, externalId, outcome: 'created', uid: created.uid };
    }
    if (hasSameFields(row, fields)) return { index, externalId, outcome: 'unchanged', uid: row.uid };
    await this.records.updateRecord(manager, row, fields, actor, 'sync');
    return { index, externalId, outcome: 'updated', uid: row.uid };
  }

  private async finish(
    actor: Actor,
    request: SyncRequestDto,
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
      stopAtFirstError: true,
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

function rejectedResult(index: number, externalId: string | null, reason: string): SyncRecordResultDto {
  return { index, externalId, outcome: 'rejected', reason };
}
