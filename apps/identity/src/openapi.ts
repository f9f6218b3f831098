import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { DELIVERY_EVENT_TYPES, eventWebhooks, IDENTITY_ERRORS, IDENTITY_EVENT_TYPES } from '@stdreg/contracts';
import { describeServedAnswers, describeValidationRules, listDomainErrorCodes, toOpenApi31 } from '@stdreg/server-kit';

/** Serves `/v1/openapi.json` and the reference page at `/v1/docs`. */
export function serveOpenApi(app: INestApplication, oidcIssuer: string): void {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Identity API')
    .setDescription(
      'Partner app registration, user mirror sync, API keys (App and Platform class, `Authorization: Bearer <key>`), ' +
        'operator administration, the audit log, and the authorization decision for the platform services. ' +
        'Every keyed response carries X-RateLimit-Limit and X-RateLimit-Remaining; 429 adds Retry-After. ' +
        'Errors are RFC 9457 problem details.\n\n' +
        `**Sign-in (OpenID Connect).** The OpenID Provider's issuer is \`${oidcIssuer}\`; its endpoints are in the discovery document ` +
        `[${oidcIssuer}/.well-known/openid-configuration](${oidcIssuer}/.well-known/openid-configuration), ` +
        'also served as RFC 8414 metadata at `/.well-known/oauth-authorization-server<issuer path>` on the issuer’s origin ' +
        '(authorization `/auth`, token `/token`, userinfo `/me`, JWKS `/jwks`, revocation `/token/revocation`, end session `/session/end`, all under the issuer). ' +
        'Registered apps (`POST /v1/apps`) are its clients: authorization code with PKCE (S256) for every client, client secret by HTTP Basic, ' +
        'exactly the registered redirect URIs. Ask for `resource=<OIDC_API_AUDIENCE>` and scope `api` to get a JWT access token for the standards API ' +
        '(claims `sub`, `uid`, `roles`, `auth_time`, `amr`); scope `offline_access` (with `prompt=consent`) gives a rotating refresh token. ' +
        'A formal write needs a sign-in younger than `FORMAL_WRITE_MAX_AGE_SECONDS`: sign in again with `max_age` or `prompt=login`. ' +
        'The login, consent and set-password pages (`/v1/signin/…`, `/v1/password-setup/…`) are HTML for people and not described here; ' +
        '`POST /v1/users/{id}/password-setup` issues the single-use link that sets a password.\n\n' +
        '**Events (webhooks).** A partner registers an endpoint once (`POST /v1/webhook-endpoints`) for the events of both services; ' +
        'identity delivers them as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), at least once, in order per resource. ' +
        'An endpoint reaches public addresses only, however an address is spelled (see the `url` field: IPv6 forms that carry an IPv4 address are judged by that address). ' +
        'Retries wait from the end of a failed attempt; a `410` disables the endpoint, a `429`/`503` `Retry-After` is honoured up to an hour; ' +
        '`POST …/recover` resends the failed deliveries since a time after an outage, `DELETE` removes an endpoint. ' +
        'identity’s events are this document’s `webhooks`; standards-api’s are in its own document.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key' }, 'api-key')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'A service credential (decision endpoint)' }, 'service')
    .addSecurity('oidc', {
      type: 'openIdConnect',
      openIdConnectUrl: `${oidcIssuer}/.well-known/openid-configuration`,
      description: 'Sign-in of users (their access tokens are what the decision endpoint accepts as `access_token` credentials)',
    })
    .build();
  const document = toOpenApi31(SwaggerModule.createDocument(app, config)) as OpenAPIObject;
  describeValidationRules(document);
  describeServedAnswers(document);
  listDomainErrorCodes(document, IDENTITY_ERRORS);
  // identity's own events, and what it says about deliveries; standards-api's document lists its events.
  document.webhooks = eventWebhooks([...IDENTITY_EVENT_TYPES, ...DELIVERY_EVENT_TYPES]) as OpenAPIObject['webhooks'];
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    raw: ['json'],
    customSiteTitle: 'Identity API reference',
  });
}
