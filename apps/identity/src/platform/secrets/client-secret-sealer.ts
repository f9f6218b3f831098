import { Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { OIDC_SECRETS, type OidcSecrets } from './oidc-secrets';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a webhook endpoint's signing secret is sealed for (its binding). */
export function webhookEndpointSealContext(endpointId: string): string {
  return `webhook-endpoint:${endpointId}`;
}

/**
 * Client secrets sealed at rest (AES-256-GCM, bound to the client id): the provider compares the
 * secret a client presents with the registered one itself, so identity must be able to read it back.
 */
@Injectable()
export class ClientSecretSealer {
  constructor(@Inject(OIDC_SECRETS) private readonly secrets: OidcSecrets) {}

  seal(clientId: string, secret: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.secrets.clientSecretKey, iv);
    cipher.setAAD(Buffer.from(clientId, 'utf8'));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
  }

  /** The secret, or null when it was sealed under another key or for another client. */
  open(clientId: string, sealed: Buffer): string | null {
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.secrets.clientSecretKey, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(clientId, 'utf8'));
      decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
