import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import {
  type CreateWebhookEndpointRequestDto,
  KeyClass,
  type UpdateWebhookEndpointRequestDto,
  type WebhookDeliveryDto,
  type WebhookDeliveryQueryDto,
  type RecoverWebhookDeliveriesResponseDto,
  type WebhookEndpointDto,
  type WebhookEndpointStatus,
  type WebhookEndpointWithSecretDto,
} from '@stdreg/contracts';
import { keysetPage, uuidv7 } from '@stdreg/server-kit';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { actorOf, type KeyCaller } from '../../access/callers/caller';
import { IdentityConfig } from '../../platform/config/identity.config';
import { eventActorOf, PartnerEventsService } from '../../platform/outbox/events.service';
import { ClientSecretSealer } from '../../platform/secrets/client-secret-sealer';
import { RECOVER_WINDOW_DAYS, secretContext } from './webhook-dispatcher';
import { WebhookTransport } from './webhook-transport';
import {
  deliveryNotFound,
  endpointNotEnabled,
  endpointLimitReached,
  endpointNotFound,
  endpointOrganizationRequired,
  endpointOrganizationUnknown,
  endpointOrganizationNotOwn,
  recoverSinceInvalid,
  urlRefused,
} from './webhooks.errors';
import { WebhooksRepository, type WebhookDelivery, type WebhookEndpoint } from './webhooks.repository';

/**
 * Partners' webhook endpoints, one registry for the events of both services: an organization's keys
 * manage its own, a platform key every organization's. The signing secret is shown once.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly events: PartnerEventsService,
    private readonly transport: WebhookTransport,
    private readonly sealer: ClientSecretSealer,
    private readonly audit: AuditService,
    private readonly config: IdentityConfig,
  ) {}

  async create(request: CreateWebhookEndpointRequestDto, caller: KeyCaller): Promise<WebhookEndpointWithSecretDto> {
    const organizationId = this.organizationFor(request.organizationId, caller);
    await this.checkUrl(request.url);
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.webhooks.lockOrganization(manager, organizationId))) throw endpointOrganizationUnknown(organizationId);
      const limit = this.config.WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION;
      if ((await this.webhooks.countLiveEndpoints(manager, organizationId)) >= limit) throw endpointLimitReached(organizationId, limit);
      const id = uuidv7();
      const secret = newSecret();
      const endpoint = await this.webhooks.insertEndpoint(manager, {
        id,
        organizationId,
        url: request.url,
        eventTypes: request.eventTypes,
        description: request.description ?? null,
        enabled: request.enabled ?? true,
        secretSealed: this.sealer.seal(secretContext(id), secret),
        keyId: caller.keyId,
      });
      await this.audit.record(
        actorOf(caller),
        { action: 'webhooks.create', target: id, organizationId, detail: { organizationId, url: request.url } },
        manager,
      );
      return { endpoint: toEndpointDto(endpoint), secret };
    });
  }

  list(caller: KeyCaller, query: { limit?: number; cursor?: string }): Promise<{ items: WebhookEndpointDto[]; nextCursor: string | null }> {
    return keysetPage(
      'webhook-endpoints',
      query,
      (afterId, limit) => this.webhooks.listEndpoints(scopeOf(caller), afterId, limit),
      toEndpointDto,
    );
  }

  /** An endpoint; a removed one only to a platform key, until the audit period ends. */
  async get(id: string, caller: KeyCaller): Promise<WebhookEndpointDto> {
    return toEndpointDto(await this.require(id, caller, undefined, { removedToo: true }));
  }

  async update(id: string, request: UpdateWebhookEndpointRequestDto, caller: KeyCaller): Promise<WebhookEndpointDto> {
    if (request.url !== undefined) await this.checkUrl(request.url);
    return this.dataSource.transaction(async (manager) => {
      const { organizationId } = await this.require(id, caller, manager);
      const endpoint = await this.webhooks.updateEndpoint(manager, id, request);
      await this.audit.record(
        actorOf(caller),
        { action: 'webhooks.update', target: id, organizationId, detail: { organizationId, ...request } },
        manager,
      );
      return toEndpointDto(endpoint);
    });
  }

  /** A new secret, shown once; the previous one keeps signing beside it for the overlap. */
  async rotateSecret(id: string, overlapSeconds: number | undefined, caller: KeyCaller): Promise<WebhookEndpointWithSecretDto> {
    return this.dataSource.transaction(async (manager) => {
      const { organizationId } = await this.require(id, caller, manager);
      const secret = newSecret();
      const overlap = overlapSeconds ?? this.config.WEBHOOK_SECRET_OVERLAP_SECONDS;
      const endpoint = await this.webhooks.rotateSecret(
        manager,
        id,
        this.sealer.seal(secretContext(id), secret),
        new Date(Date.now() + overlap * 1000),
      );
      await this.audit.record(
        actorOf(caller),
        { action: 'webhooks.rotate-secret', target: id, organizationId, detail: { organizationId, overlapSeconds: overlap } },
        manager,
      );
      return { endpoint: toEndpointDto(endpoint), secret };
    });
  }

  /** A `webhook.test` event for this endpoint alone, delivered (and listed) like any other. */
  async sendTest(id: string, caller: KeyCaller): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const endpoint = await this.require(id, caller, manager);
      if (!endpoint.enabled) throw endpointNotEnabled(id);
      await this.events.record(manager, {
        type: 'webhook.test',
        organizationId: endpoint.organizationId,
        resource: `endpoint:${endpoint.id}`,
        actor: eventActorOf(actorOf(caller)),
        data: { endpointId: endpoint.id, message: 'A test event, sent on request.' },
      });
      await this.audit.record(
        actorOf(caller),
        {
          action: 'webhooks.test',
          target: id,
          organizationId: endpoint.organizationId,
          detail: { organizationId: endpoint.organizationId },
        },
        manager,
      );
    });
  }

  async deliveries(
    id: string,
    query: WebhookDeliveryQueryDto,
    caller: KeyCaller,
  ): Promise<{ items: WebhookDeliveryDto[]; nextCursor: string | null }> {
    await this.require(id, caller, undefined, { removedToo: true });
    return keysetPage(
      `webhook-deliveries:${id}`,
      query,
      (afterId, limit) => this.webhooks.listDeliveries(id, query.status, afterId, limit),
      toDeliveryDto,
    );
  }

  /** Sends a delivery again, with its own webhook-id, as soon as a dispatcher is free. */
  async replay(id: string, deliveryId: string, caller: KeyCaller): Promise<WebhookDeliveryDto> {
    return this.dataSource.transaction(async (manager) => {
      const endpoint = await this.require(id, caller, manager);
      if (!endpoint.enabled) throw endpointNotEnabled(id);
      const delivery = await this.webhooks.replay(manager, id, deliveryId, new Date());
      if (!delivery) throw deliveryNotFound(deliveryId);
      await this.audit.record(
        actorOf(caller),
        {
          action: 'webhooks.replay',
          target: deliveryId,
          organizationId: endpoint.organizationId,
          detail: { organizationId: endpoint.organizationId, endpointId: id },
        },
        manager,
      );
      return toDeliveryDto(delivery);
    });
  }

  /**
   * Removes an endpoint: nothing more is sent to it and its pending deliveries are dropped; it and its
   * deliveries stay readable to platform keys for REMOVED_ENDPOINT_AUDIT_DAYS, then are purged.
   */
  async remove(id: string, caller: KeyCaller): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const { organizationId } = await this.require(id, caller, manager);
      const dropped = await this.webhooks.softDelete(manager, id, new Date());
      await this.audit.record(
        actorOf(caller),
        { action: 'webhooks.delete', target: id, organizationId, detail: { organizationId, droppedDeliveries: dropped } },
        manager,
      );
    });
  }

  /**
   * After an outage: every failed delivery created since `since` is queued again, oldest first, under its
   * own webhook-id; pending ones since then that wait for a retry are due at once.
   */
  async recover(id: string, since: string, caller: KeyCaller): Promise<RecoverWebhookDeliveriesResponseDto> {
    const now = new Date();
    const from = new Date(since);
    if (from.getTime() > now.getTime()) throw recoverSinceInvalid('must not be in the future');
    if (from.getTime() < now.getTime() - RECOVER_WINDOW_DAYS * 86_400_000)
      throw recoverSinceInvalid(`must be within the last ${RECOVER_WINDOW_DAYS} days`);
    return this.dataSource.transaction(async (manager) => {
      const endpoint = await this.require(id, caller, manager);
      if (!endpoint.enabled) throw endpointNotEnabled(id);
      const recovered = await this.webhooks.recover(manager, id, from, now);
      await this.audit.record(
        actorOf(caller),
        {
          action: 'webhooks.recover',
          target: id,
          organizationId: endpoint.organizationId,
          detail: { organizationId: endpoint.organizationId, since: from.toISOString(), ...recovered },
        },
        manager,
      );
      return recovered;
    });
  }

  private organizationFor(requested: string | undefined, caller: KeyCaller): string {
    if (caller.keyClass === KeyClass.Platform) {
      if (requested === undefined) throw endpointOrganizationRequired();
      return requested;
    }
    if (requested !== undefined && requested !== caller.organizationId) throw endpointOrganizationNotOwn(requested);
    return caller.organizationId!;
  }

  private async checkUrl(url: string): Promise<void> {
    const refusal = await this.transport.refusal(url);
    if (refusal) throw urlRefused(url, refusal);
  }

  /**
   * The endpoint, if the caller's organization owns it (any, for a platform key); otherwise 404. A removed
   * one is gone for every change, and for reading too except to a platform key (`removedToo`).
   */
  private async require(
    id: string,
    caller: KeyCaller,
    manager?: EntityManager,
    options: { removedToo?: boolean } = {},
  ): Promise<WebhookEndpoint> {
    const removedToo = options.removedToo === true && caller.keyClass === KeyClass.Platform;
    const endpoint = await this.webhooks.findEndpoint(id, scopeOf(caller), manager, removedToo);
    if (!endpoint) throw endpointNotFound(id);
    return endpoint;
  }
}

function scopeOf(caller: KeyCaller): string | null {
  return caller.keyClass === KeyClass.Platform ? null : caller.organizationId;
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function toEndpointDto(endpoint: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: endpoint.id,
    organizationId: endpoint.organizationId,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes,
    description: endpoint.description,
    enabled: endpoint.enabled,
    status: statusOf(endpoint),
    disabledReason: endpoint.disabledForFailures ? endpoint.disabledReason : null,
    disabledAt: endpoint.disabledAt ? new Date(endpoint.disabledAt).toISOString() : null,
    deletedAt: endpoint.deletedAt ? new Date(endpoint.deletedAt).toISOString() : null,
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt ? new Date(endpoint.previousSecretExpiresAt).toISOString() : null,
    createdAt: new Date(endpoint.createdAt).toISOString(),
  };
}

function statusOf(endpoint: WebhookEndpoint): WebhookEndpointStatus {
  if (endpoint.deletedAt) return 'deleted';
  if (endpoint.enabled) return 'enabled';
  return endpoint.disabledForFailures ? 'failing_disabled' : 'disabled';
}

function toDeliveryDto(delivery: WebhookDelivery): WebhookDeliveryDto {
  const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);
  return {
    id: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    responseStatus: delivery.responseStatus,
    responseBody: delivery.responseBody,
    error: delivery.error,
    lastAttemptAt: iso(delivery.lastAttemptAt),
    nextAttemptAt: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
    createdAt: new Date(delivery.createdAt).toISOString(),
  };
}
