import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigValidationError, loadConfig } from '@stdreg/server-kit';
import { IdentityConfig } from '../config/identity.config';
import { DEV_SECRETS_FILE, generateSigningKey, loadOidcSecrets } from './oidc-secrets';

const PUBLIC_URLS = { OIDC_ISSUER: 'https://id.example.com/oidc', OIDC_MCP_RESOURCE: 'https://platform.example.com/mcp' };
const configWith = (env: Record<string, string>) => loadConfig(IdentityConfig, env);

describe('sign-in secrets', () => {
  it('refuses signing keys that are not a private JWKS with distinct kids and an RSA key, naming OIDC_JWKS', () => {
    const { d: _d, ...publicOnly } = generateSigningKey('pub');
    const { kid: _kid, ...withoutKid } = generateSigningKey('x');
    const ecOnly = {
      kty: 'EC',
      crv: 'P-256',
      kid: 'ec',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
      d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI',
    };
    const refusals: [object[], RegExp][] = [
      [[], /OIDC_JWKS: must be .* with at least one key/],
      [[publicOnly], /OIDC_JWKS: key pub is not a private key/],
      [[withoutKid], /OIDC_JWKS: key 0 has no kid/],
      [[generateSigningKey('a'), generateSigningKey('a')], /OIDC_JWKS: key 1: kid a appears twice/],
      [[ecOnly], /OIDC_JWKS: needs an RSA key/],
    ];
    for (const [keys, reason] of refusals) {
      let failure: unknown;
      try {
        loadOidcSecrets(configWith({ OIDC_JWKS: JSON.stringify({ keys }), DATA_DIR: 'memory://' }));
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(ConfigValidationError);
      expect((failure as Error).message).toMatch(reason);
    }
  });

  it('publishes only the public part of each key, in the configured order', () => {
    const secrets = loadOidcSecrets(
      configWith({ OIDC_JWKS: JSON.stringify({ keys: [generateSigningKey('new'), generateSigningKey('old')] }), DATA_DIR: 'memory://' }),
    );
    expect(secrets.publicKeys.map((key) => key.kid)).toEqual(['new', 'old']);
    for (const key of secrets.publicKeys) expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });

  it('generates what is not configured once under DATA_DIR (mode 0600) and reuses it on the next start', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'oidc-secrets-'));
    try {
      const first = loadOidcSecrets(configWith({ DATA_DIR: dataDir }));
      expect(first.generated).toEqual(['OIDC_JWKS', 'OIDC_COOKIE_KEYS', 'OIDC_CLIENT_SECRET_KEY']);
      const file = path.join(dataDir, DEV_SECRETS_FILE);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const second = loadOidcSecrets(configWith({ DATA_DIR: dataDir }));
      expect(second.signingKeys).toEqual(first.signingKeys);
      expect(second.clientSecretKey.equals(first.clientSecretKey)).toBe(true);
      expect(JSON.parse(readFileSync(file, 'utf8')).cookieKeys).toEqual(first.cookieKeys);
      const configured = loadOidcSecrets(configWith({ DATA_DIR: dataDir, OIDC_COOKIE_KEYS: 'k'.repeat(40) }));
      expect(configured.cookieKeys).toEqual(['k'.repeat(40)]);
      expect(configured.generated).toEqual(['OIDC_JWKS', 'OIDC_CLIENT_SECRET_KEY']);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('generates only what a production start (NODE_ENV=production) refuses unset, so production never runs on generated secrets', () => {
    const { generated } = loadOidcSecrets(configWith({ DATA_DIR: 'memory://' }));
    let refused: unknown;
    try {
      configWith({ DATA_DIR: 'memory://', NODE_ENV: 'production', DATABASE_URL: 'postgres://identity@db/identity', ...PUBLIC_URLS });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ConfigValidationError);
    expect((refused as ConfigValidationError).problems.map((problem) => problem.split(':')[0])).toEqual(generated);
    const configured = configWith({
      DATA_DIR: 'memory://',
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://identity@db/identity',
      ...PUBLIC_URLS,
      OIDC_JWKS: JSON.stringify({ keys: [generateSigningKey('prod')] }),
      OIDC_COOKIE_KEYS: 'k'.repeat(40),
      OIDC_CLIENT_SECRET_KEY: 's'.repeat(43),
    });
    expect(loadOidcSecrets(configured).generated).toEqual([]);
  });
});
