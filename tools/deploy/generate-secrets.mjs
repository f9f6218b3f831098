// Prints the three Secrets of deploy/k8s with fresh values, paired as the services need them:
//   node tools/deploy/generate-secrets.mjs --postgres-password <p> [--redis-password <p>] > secrets.yaml
//   kubectl apply -f secrets.yaml      (keep the file out of version control, or do not keep it at all)
// Service tokens, identity's OIDC signing key (RSA 2048, RS256), cookie key and client-secret sealing key
// are generated; the database and Redis passwords are yours (the ones your PostgreSQL and Redis use).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';

const { values } = parseArgs({
  options: {
    'postgres-password': { type: 'string' },
    'redis-password': { type: 'string' },
    'postgres-host': { type: 'string', default: 'postgres:5432' },
    'redis-host': { type: 'string', default: 'redis:6379' },
  },
});
if (!values['postgres-password']) {
  console.error(
    'usage: generate-secrets.mjs --postgres-password <password> [--redis-password <password>] [--postgres-host host:port] [--redis-host host:port]',
  );
  process.exit(2);
}

const token = () => randomBytes(32).toString('base64url');
const date = new Date().toISOString().slice(0, 10);
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = {
  ...privateKey.export({ format: 'jwk' }),
  kid: `sig-${date}-${randomBytes(4).toString('hex')}`,
  alg: 'RS256',
  use: 'sig',
};
const password = encodeURIComponent(values['postgres-password']);
const redisAuth = values['redis-password'] ? `:${encodeURIComponent(values['redis-password'])}@` : '';
const redisUrl = `redis://${redisAuth}${values['redis-host']}`;
const serviceTokens = { 'standards-api': token(), 'mcp-gateway': token() };

const secret = (app, stringData) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name: `${app}-secrets`,
    namespace: 'stdreg',
    labels: { 'app.kubernetes.io/name': app, 'app.kubernetes.io/part-of': 'stdreg' },
  },
  type: 'Opaque',
  stringData,
});

const documents = [
  secret('identity', {
    DATABASE_URL: `postgres://stdreg:${password}@${values['postgres-host']}/identity`,
    REDIS_URL: redisUrl,
    DECISION_SERVICE_TOKENS: Object.entries(serviceTokens)
      .map(([app, value]) => `${app}:${value}`)
      .join(','),
    OIDC_JWKS: JSON.stringify({ keys: [signingKey] }),
    OIDC_COOKIE_KEYS: token(),
    OIDC_CLIENT_SECRET_KEY: token(),
  }),
  secret('standards-api', {
    DATABASE_URL: `postgres://stdreg:${password}@${values['postgres-host']}/standards`,
    IDENTITY_SERVICE_TOKEN: serviceTokens['standards-api'],
  }),
  secret('mcp-gateway', { IDENTITY_SERVICE_TOKEN: serviceTokens['mcp-gateway'], REDIS_URL: redisUrl }),
];
process.stdout.write(documents.map((document) => stringify(document, { lineWidth: 0 })).join('---\n'));
