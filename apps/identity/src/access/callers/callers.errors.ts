import { DomainError } from '@stdreg/server-kit';

// Refusals of callers that cannot be authenticated (codes and categories declared in IDENTITY_ERRORS; the
// key codes keep the `keys.` prefix they were published with).

const KEY_REQUIRED = 'A valid API key is required: Authorization: Bearer <key>.';

export function credentialMissing(): DomainError {
  return DomainError.of('keys.credential_missing', KEY_REQUIRED, { headers: { 'WWW-Authenticate': 'Bearer realm="identity"' } });
}

export function credentialInvalid(description: string): DomainError {
  return DomainError.of('keys.credential_invalid', KEY_REQUIRED, {
    headers: { 'WWW-Authenticate': `Bearer realm="identity", error="invalid_token", error_description="${description}"` },
  });
}

export function platformKeyRequired(): DomainError {
  return DomainError.of('keys.platform_key_required', 'This operation needs a platform key.');
}

export function serviceCredentialRequired(): DomainError {
  return DomainError.of('decisions.service_credential_required', 'A valid service credential is required.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="identity-decisions"' },
  });
}

export function serviceRightMissing(service: string, right: string): DomainError {
  return DomainError.of(
    'decisions.service_right_missing',
    `The service credential "${service}" does not hold the right "${right}" this route needs (SERVICE_RIGHTS).`,
  );
}
