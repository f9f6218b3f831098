import { Injectable } from '@nestjs/common';
import type { AdapterPayload } from 'oidc-provider';
import { RegisteredAppsService } from '../../partners/registered-apps/registered-apps.service';
import { ClientSecretSealer } from '../../platform/secrets/client-secret-sealer';
import type { ClientSource } from './oidc-adapter';

/**
 * Registered apps as OIDC clients, read on every use: confidential web clients of the code flow with
 * exactly their registered redirect URIs. A deleted app, or one whose registering key was revoked, is
 * no client at all.
 */
@Injectable()
export class OidcClients implements ClientSource {
  constructor(
    private readonly apps: RegisteredAppsService,
    private readonly sealer: ClientSecretSealer,
  ) {}

  async find(clientId: string): Promise<AdapterPayload | undefined> {
    const app = await this.apps.findActiveClient(clientId);
    const secret = app?.clientSecretSealed ? this.sealer.open(app.clientId, app.clientSecretSealed) : null;
    if (!app || !secret) return undefined;
    return {
      client_id: app.clientId,
      client_secret: secret,
      client_name: app.name,
      application_type: 'web',
      redirect_uris: app.redirectUris,
      // Signing out may return to where signing in does: the same exact URIs.
      post_logout_redirect_uris: app.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      require_auth_time: true,
    };
  }
}
