import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type CreateUserRequestDto,
  ErrorCode,
  type SyncRecordResultDto,
  type UpdateUserRequestDto,
  type UserDto,
  type UserListQueryDto,
} from '@stdreg/contracts';
import { DomainError, keysetPage, uuidv7 } from '@stdreg/server-kit';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { actorOf, mayUseRegistry, type KeyCaller } from '../../access/callers/caller';
import { appNotFound } from '../../partners/registered-apps/registered-apps.errors';
import { RegisteredAppsService } from '../../partners/registered-apps/registered-apps.service';
import { externalIdTaken, nothingToChange, userNotFound } from './users.errors';
import { SubjectChange, SubjectChanges, type SubjectChangeWrite } from '../../access/subject-changes/subject-changes';
import { type MirrorFields, UsersRepository, type MirrorRecord } from './users.repository';
import { GrantRevocations } from '../../sign-in/oidc/grant-revocations';

/** Where a mirror write came from, kept in its audit entry. */
type WriteSource = 'api' | 'sync';

/** Who writes a registry's records, by which path, and the registry's organization, which their audit entries name. */
interface RecordWriter {
  actor: Actor;
  source: WriteSource;
  organizationId: string | null;
}

/** One record of a partner's sync batch: the fields it is to have, or its deletion. */
export interface MirrorChange {
  index: number;
  externalId: string;
  fields: MirrorFields;
  deleted: boolean;
}

const MIRROR_FIELDS = ['email', 'emailVerified', 'displayName', 'locale'] as const;

/**
 * The users of a registry: mirror records of a partner app's users, each linked to one unified
 * user. Every record write, of the API and of sync, runs inside a transaction holding the registry lock.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly apps: RegisteredAppsService,
    private readonly audit: AuditService,
    private readonly subjectChanges: SubjectChanges,
    private readonly signIns: GrantRevocations,
  ) {}

  async list(query: UserListQueryDto, caller: KeyCaller): Promise<{ items: UserDto[]; nextCursor: string | null }> {
    await this.apps.requireUsable(query.registryId, caller);
    return keysetPage('users', query, (afterId, limit) => this.users.list(query.registryId, query.email, afterId, limit), toUserDto);
  }

  async get(id: string, caller: KeyCaller): Promise<UserDto> {
    return toUserDto(await this.requireVisible(id, caller));
  }

  async create(request: CreateUserRequestDto, caller: KeyCaller): Promise<UserDto> {
    await this.apps.requireUsable(request.registryId, caller);
    return this.dataSource.transaction(async (manager) => {
      const registry = await this.users.lockRegistry(manager, request.registryId);
      if (!registry) throw appNotFound(request.registryId);
      if ((await this.users.findByExternalIds(manager, request.registryId, [request.externalId])).length > 0) {
        throw externalIdTaken(request.registryId, request.externalId);
      }
      return toUserDto(await this.createRecord(manager, request, { actor: actorOf(caller), source: 'api', ...registry }));
    });
  }

  async update(id: string, request: UpdateUserRequestDto, caller: KeyCaller): Promise<UserDto> {
    if (MIRROR_FIELDS.every((field) => request[field] == null)) {
      throw nothingToChange(MIRROR_FIELDS);
    }
    const visible = await this.requireVisible(id, caller);
    return this.dataSource.transaction(async (manager) => {
      const { row, organizationId } = await this.lockedRecord(manager, visible);
      const fields: MirrorFields = {
        email: request.email ?? row.email,
        emailVerified: request.emailVerified ?? row.emailVerified,
        displayName: request.displayName ?? row.displayName,
        locale: request.locale ?? row.locale,
      };
      const writer: RecordWriter = { actor: actorOf(caller), source: 'api', organizationId };
      return toUserDto(hasSameFields(row, fields) ? row : await this.updateRecord(manager, row, fields, writer));
    });
  }

  /** Answers once no replica's decision relies on the unified user it may have taken with it (TokenSubjectLeases). */
  async delete(id: string, caller: KeyCaller): Promise<void> {
    const visible = await this.requireVisible(id, caller);
    await this.subjectChanges.apply(SubjectChange.people(visible.uid), (write) =>
      this.dataSource.transaction(async (manager) => {
        const { row, organizationId } = await this.lockedRecord(manager, visible);
        await this.deleteRecord(manager, row, { actor: actorOf(caller), source: 'api', organizationId }, write);
      }),
    );
  }

  /**
   * Applies a sync batch's valid records, in the caller's transaction: the registry locked first, then
   * its records with these external ids; each record created, updated, deleted or left as it is. One
   * result per change, in the changes' order.
   */
  async applyBatch(
    manager: EntityManager,
    registryId: string,
    changes: MirrorChange[],
    actor: Actor,
    write: SubjectChangeWrite,
  ): Promise<SyncRecordResultDto[]> {
    const registry = await this.users.lockRegistry(manager, registryId);
    if (!registry) throw appNotFound(registryId);
    const writer: RecordWriter = { actor, source: 'sync', ...registry };
    const externalIds = changes.map((change) => change.externalId);
    const current = new Map((await this.users.findByExternalIds(manager, registryId, externalIds)).map((row) => [row.externalId, row]));
    const results: SyncRecordResultDto[] = [];
    for (const change of changes)
      results.push(await this.applyChange(manager, registryId, change, current.get(change.externalId), writer, write));
    return results;
  }

  private async applyChange(
    manager: EntityManager,
    registryId: string,
    { index, externalId, fields, deleted }: MirrorChange,
    row: MirrorRecord | undefined,
    writer: RecordWriter,
    write: SubjectChangeWrite,
  ): Promise<SyncRecordResultDto> {
    if (deleted) {
      if (!row) return { index, externalId, outcome: 'unchanged' };
      await this.deleteRecord(manager, row, writer, write);
      return { index, externalId, outcome: 'deleted', uid: row.uid };
    }
    if (!row) {
      const created = await this.createRecord(manager, { registryId, externalId, ...fields }, writer);
      return { index, externalId, outcome: 'created', uid: created.uid };
    }
    if (hasSameFields(row, fields)) return { index, externalId, outcome: 'unchanged', uid: row.uid };
    await this.updateRecord(manager, row, fields, writer);
    return { index, externalId, outcome: 'updated', uid: row.uid };
  }

  /**
   * Creates a mirror record linked to the unified user whose verified email its own organization
   * vouched for, or to a new one: another organization's say-so about an email joins nobody.
   */
  private async createRecord(
    manager: EntityManager,
    record: MirrorFields & { registryId: string; externalId: string },
    { actor, source, organizationId }: RecordWriter,
  ): Promise<MirrorRecord> {
    const link = await this.linkUnifiedUser(manager, record);
    const row = await this.users.insert(manager, {
      id: uuidv7(),
      registryId: record.registryId,
      externalId: record.externalId,
      email: record.email,
      emailVerified: record.emailVerified,
      displayName: record.displayName,
      locale: record.locale,
      uid: link.uid,
    });
    await this.audit.record(
      actor,
      {
        action: 'users.create',
        target: row.id,
        organizationId,
        detail: { registryId: row.registryId, externalId: row.externalId, uid: row.uid, unifiedUser: link.kind, source },
      },
      manager,
    );
    return row;
  }

  /** Changes a record's fields; its link to a unified user stays as it is. */
  private async updateRecord(
    manager: EntityManager,
    row: MirrorRecord,
    fields: MirrorFields,
    { actor, source, organizationId }: RecordWriter,
  ): Promise<MirrorRecord> {
    const updated = await this.users.update(manager, row.id, fields);
    const changed = MIRROR_FIELDS.filter((field) => fieldsOf(row)[field] !== fields[field]);
    await this.audit.record(
      actor,
      {
        action: 'users.update',
        target: row.id,
        organizationId,
        detail: { registryId: row.registryId, externalId: row.externalId, changed, source },
      },
      manager,
    );
    return updated;
  }

  /** Removes a record, and its unified user too when nothing else refers to it. */
  private async deleteRecord(
    manager: EntityManager,
    row: MirrorRecord,
    { actor, source, organizationId }: RecordWriter,
    write: SubjectChangeWrite,
  ): Promise<void> {
    await this.users.delete(manager, row.id);
    const unifiedUserDeleted = await this.users.deleteUnifiedUserIfUnreferenced(manager, row.uid, write);
    await this.audit.record(
      actor,
      {
        action: 'users.delete',
        target: row.id,
        organizationId,
        detail: { registryId: row.registryId, externalId: row.externalId, uid: row.uid, unifiedUserDeleted, source },
      },
      manager,
    );
    // A person who is gone keeps no grant: each one ends here, recorded as the deleting caller's doing.
    if (unifiedUserDeleted) await this.signIns.endSignInsOf(manager, row.uid, 'person_deleted', actor, write);
  }

  private async linkUnifiedUser(
    manager: EntityManager,
    fields: MirrorFields & { registryId: string },
  ): Promise<{ uid: string; kind: 'existing' | 'new' }> {
    const emailScope = await this.users.emailScopeOf(manager, fields.registryId);
    if (emailScope === null) throw appNotFound(fields.registryId);
    // Two rounds: a concurrent transaction may create the unified user of this verified email
    // between our look-up and our insert, and then we link to it instead.
    for (let round = 0; round < 2; round++) {
      if (fields.emailVerified) {
        const existing = await this.users.findVerifiedUnifiedUser(manager, fields.email, emailScope);
        if (existing) return { uid: existing, kind: 'existing' };
      }
      const uid = uuidv7();
      const user = { uid, email: fields.email, emailVerified: fields.emailVerified, displayName: fields.displayName, emailScope };
      if (await this.users.insertUnifiedUser(manager, user)) return { uid, kind: 'new' };
    }
    throw new Error('no unified user could be found or created for a verified email');
  }

  /** The record re-read under the registry lock; 404 when it or its app went away meanwhile. */
  private async lockedRecord(manager: EntityManager, visible: MirrorRecord): Promise<{ row: MirrorRecord; organizationId: string | null }> {
    const registry = await this.users.lockRegistry(manager, visible.registryId);
    const locked = registry ? await this.users.lock(manager, visible.id) : null;
    if (!registry || !locked) throw userNotFound(visible.id);
    return { row: locked, organizationId: registry.organizationId };
  }

  /** The record, if it exists and its registry is usable by the key; otherwise 404, so ids don't leak. */
  private async requireVisible(id: string, caller: KeyCaller): Promise<MirrorRecord> {
    const row = await this.users.find(id);
    if (!row || !mayUseRegistry(caller, row.registryId)) throw userNotFound(id);
    try {
      await this.apps.requireUsable(row.registryId, caller);
    } catch (error) {
      throw error instanceof DomainError && error.code === ErrorCode.NotFound ? userNotFound(id) : error;
    }
    return row;
  }
}

function fieldsOf(row: MirrorRecord): MirrorFields {
  return { email: row.email, emailVerified: row.emailVerified, displayName: row.displayName, locale: row.locale };
}

function hasSameFields(row: MirrorRecord, fields: MirrorFields): boolean {
  const current = fieldsOf(row);
  return MIRROR_FIELDS.every((field) => current[field] === fields[field]);
}

function toUserDto(row: MirrorRecord): UserDto {
  return {
    id: row.id,
    registryId: row.registryId,
    externalId: row.externalId,
    email: row.email,
    emailVerified: row.emailVerified,
    displayName: row.displayName,
    locale: row.locale,
    uid: row.uid,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
