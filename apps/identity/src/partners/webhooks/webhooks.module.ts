import { Module } from '@nestjs/common';
import { CallersModule } from '../../access/callers/callers.module';
import { AuditModule } from '../../platform/audit-trail/audit.module';
import { IdentityConfig } from '../../platform/config/identity.config';
import { EventsModule } from '../../platform/outbox/events.module';
import { OidcSecretsModule } from '../../platform/secrets/oidc-secrets.module';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookTransport } from './webhook-transport';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';
import { IdentityConfigModule } from '../../platform/config/identity-config.module';

/** Partners' endpoints and the dispatcher that delivers the outbox to them. */
@Module({
  imports: [IdentityConfigModule, CallersModule, AuditModule, OidcSecretsModule, EventsModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksRepository,
    WebhooksService,
    WebhookDispatcher,
    {
      provide: WebhookTransport,
      useFactory: (config: IdentityConfig) =>
        new WebhookTransport({
          allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK === 'true',
          allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true',
          timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        }),
      inject: [IdentityConfig],
    },
  ],
  exports: [WebhooksService],
})
export class WebhooksModule {}
