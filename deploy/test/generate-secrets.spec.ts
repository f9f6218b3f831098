import { spawnSync } from 'node:child_process';
import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { checkConfig } from './support/artifacts';
import { APPS, ROOT } from './support/config-variables';
import { find, loadManifests, type Manifest } from './support/manifests';

const manifests = loadManifests();

function generate(...args: string[]): Manifest[] {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'tools/deploy/generate-secrets.mjs'), ...args], { encoding: 'utf8' });
  expect(result.status).toBe(0);
  return parseAllDocuments(result.stdout).map((document) => document.toJS() as Manifest);
}

describe('tools/deploy/generate-secrets.mjs', () => {
  it('prints drop-in replacements for the placeholder Secrets, with fresh values', () => {
    const generated = generate('--postgres-password', 'p@ss word', '--redis-password', 'r3dis');
    const again = generate('--postgres-password', 'p@ss word', '--redis-password', 'r3dis');
    for (const app of APPS) {
      const placeholder = find(manifests, 'Secret', `${app}-secrets`)!;
      const secret = find(generated, 'Secret', `${app}-secrets`)!;
      expect(secret.metadata).toEqual(placeholder.metadata);
      expect(Object.keys(secret.stringData!).sort()).toEqual(Object.keys(placeholder.stringData!).sort());
      expect(Object.values(secret.stringData!).join()).not.toContain('REPLACE');
      expect(find(again, 'Secret', `${app}-secrets`)!.stringData).not.toEqual(secret.stringData);
    }
    const identity = find(generated, 'Secret', 'identity-secrets')!.stringData!;
    expect(identity['DATABASE_URL']).toBe('postgres://stdreg:p%40ss%20word@postgres:5432/identity');
    expect(identity['REDIS_URL']).toBe('redis://:r3dis@redis:6379');
    expect(find(generated, 'Secret', 'mcp-gateway-secrets')!.stringData!['REDIS_URL']).toBe(identity['REDIS_URL']);
  });

  it('pairs the service tokens and makes values every app accepts, with an RSA signing key that has a kid', () => {
    const generated = generate('--postgres-password', 'secret');
    const pairs = new Map(
      find(generated, 'Secret', 'identity-secrets')!
        .stringData!['DECISION_SERVICE_TOKENS']!.split(',')
        .map((p) => p.split(':') as [string, string]),
    );
    for (const app of ['standards-api', 'mcp-gateway']) {
      expect(pairs.get(app)).toBe(find(generated, 'Secret', `${app}-secrets`)!.stringData!['IDENTITY_SERVICE_TOKEN']);
    }
    for (const app of APPS) {
      const env = { ...find(manifests, 'ConfigMap', `${app}-config`)!.data, ...find(generated, 'Secret', `${app}-secrets`)!.stringData };
      // As the images run them: production refuses a placeholder left in a Secret.
      expect(checkConfig(app, { NODE_ENV: 'production', ...env })).toEqual({ ok: true, output: `${app}: configuration valid\n` });
    }
    const [key] = JSON.parse(find(generated, 'Secret', 'identity-secrets')!.stringData!['OIDC_JWKS']!).keys as (JsonWebKey & {
      kid: string;
    })[];
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.stringMatching(/^sig-/) });
    expect(createPrivateKey({ key: key!, format: 'jwk' }).asymmetricKeyType).toBe('rsa');
  });

  it('refuses to run without the PostgreSQL password', () => {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'tools/deploy/generate-secrets.mjs')], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--postgres-password');
  });
});
