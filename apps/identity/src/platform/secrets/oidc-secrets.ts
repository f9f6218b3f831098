import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type JsonWebKey } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigValidationError } from '@stdreg/server-kit';
import type { IdentityConfig } from '../config/identity.config';
import { jwksProblem } from '../config/jwks';

/** A private JSON Web Key as the provider takes it; `kid` is required so verifiers can pick the key. */
export type PrivateJwk = JsonWebKey & { kid: string; kty: string };

/** The secrets of sign-in: signing keys, cookie keys, and the key that seals client secrets at rest. */
export interface OidcSecrets {
  signingKeys: PrivateJwk[];
  /** The same keys without their private parts: what `/jwks` publishes and the decision endpoint verifies with. */
  publicKeys: JsonWebKey[];
  cookieKeys: string[];
  clientSecretKey: Buffer;
}

export const OIDC_SECRETS = Symbol('OIDC_SECRETS');

/** The file development secrets are kept in (mode 0600), so a restart keeps sessions, tokens and client secrets valid. */
export const DEV_SECRETS_FILE = 'oidc-secrets.json';

/** A new RS256 signing key (RSA 2048) as a private JWK. */
export function generateSigningKey(kid = `sig-${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`): PrivateJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } as PrivateJwk;
}

interface DevSecretsFile {
  signingKeys: PrivateJwk[];
  cookieKeys: string[];
  clientSecretKey: string;
}

/**
 * The configured secrets; whatever is not configured comes from DATA_DIR/oidc-secrets.json, made on
 * first start. Bad keys stop the start with a message naming the variable.
 */
export function loadOidcSecrets(config: IdentityConfig): OidcSecrets & { generated: string[] } {
  const generated: string[] = [];
  let dev: DevSecretsFile | null = null;
  const devSecrets = (): DevSecretsFile => (dev ??= readOrCreateDevSecrets(config.DATA_DIR));
  const signingKeys = config.OIDC_JWKS ? parseJwks(config.OIDC_JWKS) : (generated.push('OIDC_JWKS'), devSecrets().signingKeys);
  const cookieKeys = config.OIDC_COOKIE_KEYS
    ? config.OIDC_COOKIE_KEYS.split(',')
    : (generated.push('OIDC_COOKIE_KEYS'), devSecrets().cookieKeys);
  const clientSecretKey = Buffer.from(
    config.OIDC_CLIENT_SECRET_KEY ?? (generated.push('OIDC_CLIENT_SECRET_KEY'), devSecrets().clientSecretKey),
    'base64url',
  );
  return { signingKeys, publicKeys: signingKeys.map(publicPartOf), cookieKeys, clientSecretKey, generated };
}

/** The configured keys; the config's validation has refused any set `jwksProblem` finds wrong. */
function parseJwks(value: string): PrivateJwk[] {
  const problem = jwksProblem(value);
  if (problem) throw new ConfigValidationError([`OIDC_JWKS: ${problem}`]);
  return (JSON.parse(value) as { keys: PrivateJwk[] }).keys;
}

function publicPartOf(key: PrivateJwk): JsonWebKey {
  const publicJwk = createPublicKey(createPrivateKey({ key, format: 'jwk' })).export({ format: 'jwk' });
  return { ...publicJwk, kid: key.kid, ...(key.alg ? { alg: key.alg } : {}), use: 'sig' };
}

function readOrCreateDevSecrets(dataDir: string): DevSecretsFile {
  const secrets: DevSecretsFile = {
    signingKeys: [generateSigningKey()],
    cookieKeys: [randomBytes(32).toString('base64url')],
    clientSecretKey: randomBytes(32).toString('base64url'),
  };
  // A throwaway embedded database gets throwaway secrets.
  if (dataDir === 'memory://') return secrets;
  const file = path.resolve(dataDir, DEV_SECRETS_FILE);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DevSecretsFile;
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process sharing DATA_DIR wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return JSON.parse(readFileSync(file, 'utf8')) as DevSecretsFile;
    throw error;
  }
  chmodSync(file, 0o600);
  return secrets;
}
