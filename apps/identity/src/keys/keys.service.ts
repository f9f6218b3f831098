import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type ApiKeyDto, type CreateKeyRequestDto, type IssuedKeyDto, KeyClass, type KeyListQueryDto } from '@stdreg/contracts';
import { keysetPage, uuidv7 } from '@stdreg/server-kit';
import { AuditService, type Actor } from '../audit/audit.service';
import type { KeyCaller } from '../callers/caller';
import { IdentityConfig } from '../config/identity.config';
import { eventActorOf, PartnerEventsService } from '../events/events.service';
import { KeyLeases, type LeasedCredential } from './key-leases';
import { TokenSubjectLeases } from '../leases/token-subject-leases';
import { generateKeySecret, parseKey, secretMatches, type ParsedKey } from './key-secret';
import {
  agentKeyNotApp,
  keyNotFound,
  keyRevoked,
  organizationRequired,
  organizationUnknown,
  registriesUnknown,
  supervisorUnknown,
} from './keys.errors';
import { KeysRepository, type ApiKey } from './keys.repository';

export const DEFAULT_MAX_APPS = 3;

/** Who a key is, without what may change under a lease (its registry bindings). */
export type KeyIdentity = Pick<KeyCaller, 'keyId' | 'keyPrefix' | 'keyClass' | 'organizationId' | 'agentSupervisorUid'>;

export interface NewKey {
  name: string;
  keyClass: KeyClass;
  organizationId: string | null;
  maxApps?: number | undefined;
  registryIds?: string[] | undefined;
  agentSupervisorUid?: string | undefined;
}

/** API keys: issued once, stored as hashes, rotated with a grace period, revoked at once. */
@Injectable()
export class KeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: KeysRepository,
    private readonly leases: KeyLeases,
    private readonly audit: AuditService,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    private readonly events: PartnerEventsService,
    private readonly subjectLeases: TokenSubjectLeases,
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

  /** The key behind a presented secret, if it is valid now, read from the database. */
  async authenticate(presented: string): Promise<KeyCaller | null> {
    const parsed = parseKey(presented);
    if (!parsed) return null;
    const credential = await this.readCredential(parsed.prefix);
    return credential && accepts(credential, parsed, presented) ? credential.caller : null;
  }

  /**
   * The key a refused credential names when its prefix is one identity issued (revoked, rotated out,
   * or presented with a wrong secret); null for a made-up key.
   */
  async refusedKey(presented: string): Promise<Pick<KeyIdentity, 'keyPrefix' | 'keyClass' | 'agentSupervisorUid'> | null> {
    const parsed = parseKey(presented);
    if (!parsed) return null;
    const row = await this.keys.findCredential(parsed.prefix);
    return row ? { keyPrefix: parsed.prefix, keyClass: row.keyClass, agentSupervisorUid: row.agentSupervisorUid } : null;
  }

  /**
   * The same answer for the decision endpoint, from this replica's lease on the key while one is live
   * (KeyLeases: revocation still counts at once). Registry bindings may be a lease old, so they are left out.
   */
  async authenticateLeased(presented: string): Promise<KeyIdentity | null> {
    const parsed = parseKey(presented);
    if (!parsed) return null;
    let credential = this.leases.find(parsed.prefix);
    if (credential && this.leases.claimRenewal(parsed.prefix)) void this.renewLease(parsed.prefix);
    if (!credential) {
      const startedAt = this.leases.start();
      credential = await this.readCredential(parsed.prefix);
      if (credential) this.leases.hold(parsed.prefix, credential, startedAt);
    }
    if (!credential || !accepts(credential, parsed, presented)) return null;
    const { keyId, keyPrefix, keyClass, organizationId, agentSupervisorUid } = credential.caller;
    return { keyId, keyPrefix, keyClass, organizationId, agentSupervisorUid };
  }

  /** Reads a leased key again in the background; a failed read leaves the lease to run out. */
  private async renewLease(prefix: string): Promise<void> {
    const startedAt = this.leases.start();
    try {
      const credential = await this.readCredential(prefix);
      if (credential) this.leases.hold(prefix, credential, startedAt);
      else this.leases.drop(prefix);
    } catch {
      this.leases.renewalFailed(prefix);
    }
  }

  /** A key that is not revoked, with its secret's hash and expiry; null when there is none. */
  private async readCredential(prefix: string): Promise<LeasedCredential | null> {
    const row = await this.keys.findCredential(prefix);
    if (!row || row.revokedAt !== null) return null;
    return {
      caller: {
        keyId: row.keyId,
        keyPrefix: prefix,
        keyClass: row.keyClass,
        organizationId: row.organizationId,
        registryIds: row.registryIds,
        maxApps: row.maxApps,
        agentSupervisorUid: row.agentSupervisorUid,
      },
      secretHash: row.secretHash,
      secretExpiresAtMs: row.expiresAt?.getTime() ?? null,
    };
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
    if (key.registryIds?.length) await this.bindExistingRegistries(manager, id, key.registryIds);
    await this.audit.record(
      actor,
      {
        action: 'keys.create',
        target: id,
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
    const issued = await this.dataSource.transaction(async (manager) => {
      const locked = await this.keys.lock(manager, id);
      if (!locked) throw keyNotFound(id);
      if (locked.revokedAt) throw keyRevoked();
      const grace = gracePeriodSeconds ?? this.config.KEY_ROTATION_GRACE_SECONDS;
      await this.keys.expireCurrentSecret(manager, id, grace);
      const generated = generateKeySecret(locked.keyClass);
      await this.keys.insertSecret(manager, id, generated.prefix, generated.hash);
      await this.audit.record(
        actor,
        { action: 'keys.rotate', target: id, detail: { prefix: generated.prefix, graceSeconds: grace } },
        manager,
      );
      return { key: toApiKeyDto((await this.keys.find(id, manager))!), secret: generated.secret };
    });
    // A rotation can end a secret at once (an earlier one still in its grace period, or a grace of 0).
    await this.leases.outlastKey(id);
    return issued;
  }

  async revoke(id: string, actor: Actor): Promise<ApiKeyDto> {
    const revoked = await this.dataSource.transaction(async (manager) => {
      if (!(await this.keys.lock(manager, id))) throw keyNotFound(id);
      await this.keys.revoke(manager, id);
      await this.audit.record(actor, { action: 'keys.revoke', target: id }, manager);
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
    });
    // A revoked key also ends the sign-ins of the apps it registered (their clients go with it).
    await Promise.all([this.leases.outlastKey(id), this.subjectLeases.outlast()]);
    return revoked;
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

  private async bindExistingRegistries(manager: EntityManager, keyId: string, registryIds: string[]): Promise<void> {
    const found = await this.keys.existingRegistries(manager, registryIds);
    const missing = registryIds.filter((id) => !found.includes(id));
    if (missing.length > 0) {
      throw registriesUnknown(missing);
    }
    await this.keys.bindRegistries(manager, keyId, registryIds);
  }
}

function accepts(credential: LeasedCredential, parsed: ParsedKey, presented: string): boolean {
  if (credential.caller.keyClass !== parsed.keyClass) return false;
  if (credential.secretExpiresAtMs !== null && credential.secretExpiresAtMs <= Date.now()) return false;
  return secretMatches(presented, credential.secretHash);
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
