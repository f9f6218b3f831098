import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type ApiKeyDto, type CreateKeyRequestDto, type IssuedKeyDto, KeyClass, type KeyListQueryDto } from '@stdreg/contracts';
import { keysetPage, uuidv7 } from '@stdreg/server-kit';
import type { Actor } from '../../platform/audit-trail/actor';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { IdentityConfig } from '../../platform/config/identity.config';
import { eventActorOf, PartnerEventsService } from '../../platform/outbox/events.service';
import { SubjectChange, SubjectChanges } from '../subject-changes/subject-changes';
import { generateKeySecret } from '../callers/key-secret';
import {
  agentKeyNotApp,
  keyNotFound,
  keyRevoked,
  organizationRequired,
  organizationUnknown,
  registriesOfAnotherOrganization,
  registriesUnknown,
  supervisorUnknown,
} from './keys.errors';
import { KeysRepository, type ApiKey } from './keys.repository';
import { PasswordLinksRepository } from '../../sign-in/passwords/password-links.repository';

export const DEFAULT_MAX_APPS = 3;

export interface NewKey {
  name: string;
  keyClass: KeyClass;
  organizationId: string | null;
  maxApps?: number | undefined;
  registryIds?: string[] | undefined;
  agentSupervisorUid?: string | undefined;
}

/**
 * API keys managed: issued once, stored as hashes, rotated with a grace period, revoked at once (through
 * SubjectChanges, voiding the password links the key issued). Checking a presented key is KeyAuthentication's (callers/).
 */
@Injectable()
export class KeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: KeysRepository,
    private readonly audit: AuditService,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    private readonly events: PartnerEventsService,
    private readonly subjectChanges: SubjectChanges,
    private readonly passwordLinks: PasswordLinksRepository,
  ) {}

  /**
   * Locks a live key's row until the transaction ends (its registrations serialize on it); false when
   * the key is gone or revoked.
   */
  async lockLiveKey(manager: EntityManager, keyId: string): Promise<boolean> {
    const key = await this.keys.lock(manager, keyId);
    return key !== null && key.revokedAt === null;
  }

  /** Binds registries to a key, in the caller's transaction. */
  bindRegistries(manager: EntityManager, keyId: string, registryIds: string[]): Promise<void> {
    return this.keys.bindRegistries(manager, keyId, registryIds);
  }

  async create(request: CreateKeyRequestDto, actor: Actor): Promise<IssuedKeyDto> {
    if (request.class === KeyClass.App && !request.organizationId) {
      throw organizationRequired();
    }
    if (request.agentSupervisorId !== undefined && request.class !== KeyClass.App) throw agentKeyNotApp();
    return this.dataSource.transaction((manager) =>
      this.issue(
        manager,
        {
          name: request.name,
          keyClass: request.class,
          organizationId: request.class === KeyClass.App ? request.organizationId! : (request.organizationId ?? null),
          maxApps: request.maxApps,
          registryIds: request.allowedRegistryIds,
          agentSupervisorUid: request.agentSupervisorId,
        },
        actor,
      ),
    );
  }

  /** Creates a key and its first secret inside the caller's transaction. */
  /**
   * The first platform key, when there is no active one: replicas starting together create one
   * between them. `keep` receives it inside the transaction (a failure there creates nothing).
   */
  async issueFirstPlatformKey(lockKey: number, keep: (issued: IssuedKeyDto) => Promise<void>): Promise<IssuedKeyDto | null> {
    return this.dataSource.transaction(async (manager) => {
      if (await this.keys.lockBootstrapAndFindPlatformKey(manager, lockKey)) return null;
      const issued = await this.issue(
        manager,
        { name: 'bootstrap platform key', keyClass: KeyClass.Platform, organizationId: null },
        { kind: 'system', id: 'bootstrap' },
      );
      await keep(issued);
      return issued;
    });
  }

  async issue(manager: EntityManager, key: NewKey, actor: Actor): Promise<IssuedKeyDto> {
    const id = uuidv7();
    const generated = generateKeySecret(key.keyClass);
    await this.assertOrganizationExists(manager, key.organizationId);
    if (key.agentSupervisorUid !== undefined) await this.assertLiveUnifiedUser(manager, key.agentSupervisorUid);
    await this.keys.insert(manager, {
      id,
      name: key.name,
      keyClass: key.keyClass,
      organizationId: key.organizationId,
      maxApps: key.maxApps ?? DEFAULT_MAX_APPS,
      agentSupervisorUid: key.agentSupervisorUid ?? null,
    });
    await this.keys.insertSecret(manager, id, generated.prefix, generated.hash);
    if (key.registryIds?.length) await this.bindExistingRegistries(manager, key, id, key.registryIds);
    await this.audit.record(
      actor,
      {
        action: 'keys.create',
        target: id,
        organizationId: key.organizationId,
        detail: {
          class: key.keyClass,
          prefix: generated.prefix,
          ...(key.agentSupervisorUid === undefined ? {} : { agentSupervisorId: key.agentSupervisorUid }),
        },
      },
      manager,
    );
    return { key: toApiKeyDto((await this.keys.find(id, manager))!), secret: generated.secret };
  }

  async list(query: KeyListQueryDto): Promise<{ items: ApiKeyDto[]; nextCursor: string | null }> {
    return keysetPage('keys', query, (afterId, limit) => this.keys.list({ keyClass: query.class, afterId, limit }), toApiKeyDto);
  }

  async get(id: string): Promise<ApiKeyDto> {
    return toApiKeyDto(await this.require(id));
  }

  async rotate(id: string, gracePeriodSeconds: number | undefined, actor: Actor): Promise<IssuedKeyDto> {
    // A rotation can end a secret at once (an earlier one still in its grace period, or a grace of 0).
    return this.subjectChanges.apply(SubjectChange.key(id), (write) =>
      this.dataSource.transaction(async (manager) => {
        const locked = await this.keys.lock(manager, id);
        if (!locked) throw keyNotFound(id);
        if (locked.revokedAt) throw keyRevoked();
        const grace = gracePeriodSeconds ?? this.config.KEY_ROTATION_GRACE_SECONDS;
        await this.keys.expireCurrentSecret(manager, id, grace, write);
        const generated = generateKeySecret(locked.keyClass);
        await this.keys.insertSecret(manager, id, generated.prefix, generated.hash);
        await this.audit.record(
          actor,
          {
            action: 'keys.rotate',
            target: id,
            organizationId: locked.organizationId,
            detail: { prefix: generated.prefix, graceSeconds: grace },
          },
          manager,
        );
        return { key: toApiKeyDto((await this.keys.find(id, manager))!), secret: generated.secret };
      }),
    );
  }

  async revoke(id: string, actor: Actor): Promise<ApiKeyDto> {
    return this.subjectChanges.apply(SubjectChange.keyAndItsApps(id), (write) =>
      this.dataSource.transaction(async (manager) => {
        const locked = await this.keys.lock(manager, id);
        if (!locked) throw keyNotFound(id);
        // Revoked already: answered as it is, with no second audit entry or partner event.
        if (locked.revokedAt !== null) return toApiKeyDto((await this.keys.find(id, manager))!);
        await this.keys.revoke(manager, id, write);
        const passwordLinksVoided = await this.passwordLinks.voidIssuedByKey(manager, id);
        await this.audit.record(
          actor,
          { action: 'keys.revoke', target: id, organizationId: locked.organizationId, detail: { passwordLinksVoided } },
          manager,
        );
        const key = (await this.keys.find(id, manager))!;
        if (key.organizationId) {
          await this.events.record(manager, {
            type: 'key.revoked',
            organizationId: key.organizationId,
            resource: `key:${key.id}`,
            actor: eventActorOf(actor),
            data: { keyId: key.id, keyPrefix: key.prefix },
          });
        }
        return toApiKeyDto(key);
      }),
    );
  }

  private async require(id: string): Promise<ApiKey> {
    const row = await this.keys.find(id);
    if (!row) throw keyNotFound(id);
    return row;
  }

  private async assertOrganizationExists(manager: EntityManager, organizationId: string | null): Promise<void> {
    if (organizationId === null) return;
    if (!(await this.keys.organizationExists(manager, organizationId))) {
      throw organizationUnknown(organizationId);
    }
  }

  private async assertLiveUnifiedUser(manager: EntityManager, uid: string): Promise<void> {
    const user = await this.keys.unifiedUser(manager, uid);
    if (user === null || user.mergedInto !== null) throw supervisorUnknown(uid, user?.mergedInto ?? null);
  }

  private async bindExistingRegistries(manager: EntityManager, key: NewKey, keyId: string, registryIds: string[]): Promise<void> {
    const found = await this.keys.existingRegistries(manager, registryIds);
    const missing = registryIds.filter((id) => !found.some((registry) => registry.registryId === id));
    if (missing.length > 0) throw registriesUnknown(missing);
    // A key acts in its own organization: another's registry would let it read and write that organization's people.
    const foreign = found.filter((registry) => key.organizationId !== null && registry.organizationId !== key.organizationId);
    if (foreign.length > 0) throw registriesOfAnotherOrganization(foreign.map((registry) => registry.registryId));
    await this.keys.bindRegistries(manager, keyId, registryIds);
  }
}

export function toApiKeyDto(row: ApiKey): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    class: row.keyClass,
    prefix: row.prefix,
    organizationId: row.organizationId,
    allowedRegistryIds: row.registryIds,
    maxApps: row.maxApps,
    createdAt: row.createdAt.toISOString(),
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
    previousSecretExpiresAt: row.previousExpiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    agent: row.agentSupervisorUid === null ? null : { supervisorId: row.agentSupervisorUid },
  };
}
