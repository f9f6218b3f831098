import { IdentityCore1763900000000 } from './1763900000000-identity-core';
import { UserMirrorRegistryOrder1763900000100 } from './1763900000100-user-mirror-registry-order';
import { OidcSignIn1763900000200 } from './1763900000200-oidc-sign-in';
import { EmailVouchingScope1763900000300 } from './1763900000300-email-vouching-scope';
import { RevokedAccessToken1763900000400 } from './1763900000400-revoked-access-token';
import { PasswordSetupApp1763900000500 } from './1763900000500-password-setup-app';
import { AgentKeySupervisor1763900000700 } from './1763900000700-agent-key-supervisor';
import { PartnerEvents1763900000800 } from './1763900000800-partner-events';
import { UnifiedUserLookupsAtScale1763900000900 } from './1763900000900-unified-user-lookups-at-scale';
import { UserMergeLookups1763900001000 } from './1763900001000-user-merge-lookups';
import { WebhookDeliveryIsolationAndRemoval1763900001100 } from './1763900001100-webhook-delivery-isolation-and-removal';
import { PasswordSetupIssuer1763900001200 } from './1763900001200-password-setup-issuer';
import { UnusedAgentClientsExpire1763900001300 } from './1763900001300-unused-agent-clients-expire';
import { OidcAccountLookups1763900001400 } from './1763900001400-oidc-account-lookups';
import { AuditEntryTarget1763900001500 } from './1763900001500-audit-entry-target';
import { WebhookEndpointDisabledAt1765000000004 } from './1765000000004-webhook-endpoint-disabled-at';
import { AuditEntryOrganization1765000000007 } from './1765000000007-audit-entry-organization';

/** Every migration of identity, in order. */
export const IDENTITY_MIGRATIONS = [
  IdentityCore1763900000000,
  UserMirrorRegistryOrder1763900000100,
  OidcSignIn1763900000200,
  EmailVouchingScope1763900000300,
  RevokedAccessToken1763900000400,
  PasswordSetupApp1763900000500,
  AgentKeySupervisor1763900000700,
  PartnerEvents1763900000800,
  UnifiedUserLookupsAtScale1763900000900,
  UserMergeLookups1763900001000,
  WebhookDeliveryIsolationAndRemoval1763900001100,
  PasswordSetupIssuer1763900001200,
  UnusedAgentClientsExpire1763900001300,
  OidcAccountLookups1763900001400,
  AuditEntryTarget1763900001500,
  WebhookEndpointDisabledAt1765000000004,
  AuditEntryOrganization1765000000007,
];
