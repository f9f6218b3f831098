import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  type AppRegistrationDto,
  REGISTRY_ID_PATTERN,
  KeyClass,
  type RegisterAppRequestDto,
  type RegisteredAppDto,
} from '@stdreg/contracts';
import { keysetPage } from '@stdreg/server-kit';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { eventActorOf, PartnerEventsService } from '../../platform/outbox/events.service';
import { actorOf, mayUseRegistry, type KeyCaller } from '../../access/callers/caller';
import { KeysService } from '../../access/keys/keys.service';
import { SubjectChange, SubjectChanges } from '../../access/subject-changes/subject-changes';
import { ClientSecretSealer } from '../../platform/secrets/client-secret-sealer';
import { appLimitReached, appNotFound, registeringKeyRevoked } from './registered-apps.errors';
import { RegisteredAppsRepository, type RegisteredApp } from './registered-apps.repository';
import { PasswordLinksRepository } from '../../sign-in/passwords/password-links.repository';

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

function randomId(prefix: string, length: number): string {
  return prefix + [...randomBytes(length)].map((byte) => ID_ALPHABET[byte % 36]).join('');
}

/** Partner apps: registered by a key, bound to it, and the OIDC clients of sign-in. */
@Injectable()
export class RegisteredAppsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly apps: RegisteredAppsRepository,
    private readonly keys: KeysService,
    private readonly audit: AuditService,
    private readonly sealer: ClientSecretSealer,
    private readonly events: PartnerEventsService,
    private readonly subjectChanges: SubjectChanges,
    private readonly passwordLinks: PasswordLinksRepository,
  ) {}

  /**
   * Registers an app and binds its registry to the calling key, in one transaction that holds the
   * key's row lock, so concurrent registrations by one key cannot pass its maxApps together.
   */
  async register(request: RegisterAppRequestDto, caller: KeyCaller): Promise<AppRegistrationDto> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.keys.lockLiveKey(manager, caller.keyId))) throw registeringKeyRevoked();
      if (caller.keyClass === KeyClass.App) {
        const registered = await this.apps.countActiveRegisteredBy(manager, caller.keyId);
        if (registered >= caller.maxApps) {
          throw appLimitReached(caller.maxApps);
        }
      }
      const clientSecret = randomBytes(32).toString('base64url');
      const clientId = randomId('client_', 24);
      const row = await this.apps.insert(manager, {
        registryId: randomId('reg_', 20),
        name: request.name.trim(),
        type: request.type,
        redirectUris: request.redirectUris,
        clientId,
        clientSecretHash: createHash('sha256').update(clientSecret, 'utf8').digest(),
        clientSecretSealed: this.sealer.seal(clientId, clientSecret),
        organizationId: caller.organizationId,
        keyId: caller.keyId,
      });
      await this.keys.bindRegistries(manager, caller.keyId, [row.registryId]);
      await this.audit.record(
        actorOf(caller),
        { action: 'apps.register', target: row.registryId, organizationId: row.organizationId, detail: { name: row.name } },
        manager,
      );
      if (row.organizationId) {
        await this.events.record(manager, {
          type: 'app.registered',
          organizationId: row.organizationId,
          resource: `registry:${row.registryId}`,
          actor: eventActorOf(actorOf(caller)),
          data: { registryId: row.registryId, name: row.name, type: row.type, clientId: row.clientId, redirectUris: row.redirectUris },
        });
      }
      return { app: toRegisteredAppDto(row), clientSecret };
    });
  }

  /** A registered app as an OIDC client: live, and registered by a key not revoked. */
  findActiveClient(clientId: string): ReturnType<RegisteredAppsRepository['findActiveClient']> {
    return this.apps.findActiveClient(clientId);
  }

  async get(registryId: string, caller: KeyCaller): Promise<RegisteredAppDto> {
    return toRegisteredAppDto(await this.requireUsable(registryId, caller));
  }

  list(caller: KeyCaller, query: { limit?: number; cursor?: string }): Promise<{ items: RegisteredAppDto[]; nextCursor: string | null }> {
    const scope = caller.keyClass === KeyClass.Platform ? null : caller.registryIds;
    return keysetPage<RegisteredApp & { id: string }, RegisteredAppDto>(
      'apps',
      query,
      (afterId, limit) => this.apps.list(scope, afterId, limit),
      toRegisteredAppDto,
      REGISTRY_ID_PATTERN,
    );
  }

  async delete(registryId: string, caller: KeyCaller): Promise<void> {
    const app = await this.requireUsable(registryId, caller);
    // The app's client ends with it, and so do its users' sign-ins and their unspent password links.
    await this.subjectChanges.apply(SubjectChange.accessTokens(), (write) =>
      this.dataSource.transaction(async (manager) => {
        if (!(await this.apps.softDelete(manager, registryId, write))) throw appNotFound(registryId);
        const passwordLinksVoided = await this.passwordLinks.voidForRegistry(manager, registryId);
        await this.audit.record(
          actorOf(caller),
          { action: 'apps.delete', target: registryId, organizationId: app.organizationId, detail: { passwordLinksVoided } },
          manager,
        );
        if (app.organizationId) {
          await this.events.record(manager, {
            type: 'app.deleted',
            organizationId: app.organizationId,
            resource: `registry:${registryId}`,
            actor: eventActorOf(actorOf(caller)),
            data: { registryId },
          });
        }
      }),
    );
  }

  /** The app, if it exists and the key may use it; otherwise 404, so registry ids don't leak. */
  async requireUsable(registryId: string, caller: KeyCaller): Promise<RegisteredApp> {
    const row = mayUseRegistry(caller, registryId) ? await this.apps.find(registryId) : null;
    if (!row) throw appNotFound(registryId);
    return row;
  }
}

function toRegisteredAppDto(row: RegisteredApp): RegisteredAppDto {
  return {
    registryId: row.registryId,
    name: row.name,
    type: row.type as RegisteredAppDto['type'],
    redirectUris: row.redirectUris,
    clientId: row.clientId,
    organizationId: row.organizationId,
    createdAt: row.createdAt.toISOString(),
  };
}
