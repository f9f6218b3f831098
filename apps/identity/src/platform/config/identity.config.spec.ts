import { ConfigValidationError, loadConfig } from '@stdreg/server-kit';
import { generateSigningKey } from '../secrets/oidc-secrets';
import { IdentityConfig } from './identity.config';

/** The problems a start with `env` is refused for, or [] when it starts. */
function problemsWith(env: Record<string, string>): string[] {
  try {
    loadConfig(IdentityConfig, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
}

const refusedNaming = (variable: string) => [expect.stringMatching(new RegExp(`^${variable}: `))];

describe("identity's configuration", () => {
  it('starts with the defaults, and the buckets are those of the README', () => {
    expect(problemsWith({})).toEqual([]);
    const config = loadConfig(IdentityConfig, {});
    expect([
      config.RATE_LIMIT_APP_PER_MINUTE,
      config.RATE_LIMIT_APP_BURST,
      config.RATE_LIMIT_APP_WRITES_PER_MINUTE,
      config.RATE_LIMIT_PLATFORM_PER_MINUTE,
      config.RATE_LIMIT_PLATFORM_BURST,
      config.RATE_LIMIT_WAITLIST_PER_HOUR,
    ]).toEqual([60, 120, 20, 120, 240, 10]);
  });

  it.each([
    'RATE_LIMIT_APP_PER_MINUTE',
    'RATE_LIMIT_APP_BURST',
    'RATE_LIMIT_APP_WRITES_PER_MINUTE',
    'RATE_LIMIT_PLATFORM_PER_MINUTE',
    'RATE_LIMIT_PLATFORM_BURST',
    'RATE_LIMIT_WAITLIST_PER_HOUR',
    'SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE',
    'OIDC_REGISTRATIONS_PER_IP_PER_HOUR',
    'OIDC_FLOWS_PER_IP_PER_MINUTE',
  ])('refuses a bucket %s of zero, negative or not a whole number: a limit is never off', (variable) => {
    for (const value of ['0', '-20', '2.5', 'unlimited']) expect(problemsWith({ [variable]: value })).toEqual(refusedNaming(variable));
  });

  it('purges what ended every 10 minutes unless told otherwise, and never more often than every 10 ms', () => {
    expect(loadConfig(IdentityConfig, {}).PURGE_INTERVAL_MS).toBe(10 * 60 * 1000);
    for (const value of ['0', '9', '-1', '2.5'])
      expect(problemsWith({ PURGE_INTERVAL_MS: value })).toEqual(refusedNaming('PURGE_INTERVAL_MS'));
  });

  it('refuses a REDIS_URL that is not redis:// or rediss://', () => {
    for (const value of ['http://127.0.0.1:6379', '127.0.0.1:6379', 'redis://']) {
      expect(problemsWith({ REDIS_URL: value })).toEqual(refusedNaming('REDIS_URL'));
    }
    expect(problemsWith({ REDIS_URL: 'rediss://:pw@redis.internal:6380/2' })).toEqual([]);
  });

  it('refuses service credentials shorter than 32 characters, or not name:token pairs', () => {
    for (const value of ['standards-api:short-token', `standards-api:${'a'.repeat(32)},mcp-gateway:short`, 'a'.repeat(40)]) {
      expect(problemsWith({ DECISION_SERVICE_TOKENS: value })).toEqual(refusedNaming('DECISION_SERVICE_TOKENS'));
    }
    const config = loadConfig(IdentityConfig, { DECISION_SERVICE_TOKENS: `standards-api:${'a'.repeat(32)},mcp-gateway:${'b'.repeat(40)}` });
    expect([...config.serviceTokens.entries()]).toEqual([
      ['a'.repeat(32), 'standards-api'],
      ['b'.repeat(40), 'mcp-gateway'],
    ]);
  });

  it('refuses a token given to two services, naming them: the token would hold only the last name’s rights', () => {
    const token = 'a'.repeat(32);
    expect(problemsWith({ DECISION_SERVICE_TOKENS: `standards-api:${token},mcp-gateway:${token}` })).toEqual([
      'DECISION_SERVICE_TOKENS: gives mcp-gateway a token another service has: each service needs a token of its own',
    ]);
    // One service with two tokens (a rotation) is taken.
    expect(problemsWith({ DECISION_SERVICE_TOKENS: `standards-api:${token},standards-api:${'b'.repeat(32)}` })).toEqual([]);
  });

  it('refuses, as its config (so --check-config refuses it too), an OIDC_JWKS the provider cannot sign with, naming why', () => {
    const { d: _d, ...publicOnly } = generateSigningKey('pub');
    for (const [keys, problem] of [
      ['not json', 'must be a JSON Web Key Set ({"keys":[...]})'],
      ['{}', 'must be {"keys":[…]} with at least one key'],
      ['{"keys":[]}', 'must be {"keys":[…]} with at least one key'],
      ['null', 'must be {"keys":[…]} with at least one key'],
      [JSON.stringify({ keys: [publicOnly] }), 'key pub is not a private key'],
      [JSON.stringify({ keys: [{ kid: 'k', kty: 'RSA', d: 'x' }] }), 'key k is not a valid JSON Web Key'],
    ]) {
      expect(problemsWith({ OIDC_JWKS: keys! })).toEqual([`OIDC_JWKS: ${problem}`]);
    }
    expect(problemsWith({ OIDC_JWKS: JSON.stringify({ keys: [generateSigningKey('ok')] }) })).toEqual([]);
  });

  it('refuses OIDC_REGISTRATION=token without the token registrations present (only the start refused it; --check-config said valid)', () => {
    expect(problemsWith({ OIDC_REGISTRATION: 'token' })).toEqual([
      'OIDC_REGISTRATION: is token, which needs OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN (the bearer token registrations present)',
    ]);
    expect(problemsWith({ OIDC_REGISTRATION: 'token', OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN: 'r'.repeat(32) })).toEqual([]);
  });

  it('refuses a registration access token shorter than 32 characters', () => {
    for (const value of ['short', 'x'.repeat(31), `${'x'.repeat(31)} `]) {
      expect(problemsWith({ OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN: value })).toEqual(
        refusedNaming('OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN'),
      );
    }
  });

  it("refuses the gateway's MCP resource with a query, a fragment or another scheme", () => {
    for (const value of [
      'https://platform.example.com/mcp?tenant=a',
      'https://platform.example.com/mcp#x',
      'urn:stdreg:mcp',
      'platform.example.com/mcp',
    ]) {
      expect(problemsWith({ OIDC_MCP_RESOURCE: value })).toEqual(refusedNaming('OIDC_MCP_RESOURCE'));
    }
  });

  it.each([
    ['KEY_LEASE_MS', '5001'],
    ['TOKEN_SUBJECT_LEASE_MS', '5001'],
    ['KEY_ROTATION_GRACE_SECONDS', '2592001'],
    ['WEBHOOK_SECRET_OVERLAP_SECONDS', '604801'],
    ['WEBHOOK_MAX_ENDPOINTS_PER_ORGANIZATION', '1001'],
    ['TRUSTED_PROXY_HOPS', '11'],
  ])('refuses %s above its bound (%s) or negative', (variable, above) => {
    for (const value of [above, '-1']) expect(problemsWith({ [variable]: value })).toEqual(refusedNaming(variable));
  });

  it('refuses a webhook lease no longer than the webhook timeout: another dispatcher would send a delivery still on the wire', () => {
    for (const [lease, timeout] of [
      ['5000', undefined],
      ['10000', '10000'],
      ['200', '300'],
    ]) {
      const env = { WEBHOOK_LEASE_MS: lease!, ...(timeout ? { WEBHOOK_TIMEOUT_MS: timeout } : {}) };
      expect(problemsWith(env)).toEqual(refusedNaming('WEBHOOK_LEASE_MS'));
    }
    expect(problemsWith({ WEBHOOK_LEASE_MS: '11000', WEBHOOK_TIMEOUT_MS: '10000' })).toEqual([]);
    expect(problemsWith({ WEBHOOK_LEASE_MS: '400', WEBHOOK_TIMEOUT_MS: '300' })).toEqual([]);
  });

  it('gives a webhook receiver 15 s by default and up to 30 s, the range Standard Webhooks recommends, and a stop longer than that', () => {
    expect(loadConfig(IdentityConfig, {})).toMatchObject({ WEBHOOK_TIMEOUT_MS: 15000, SHUTDOWN_TIMEOUT_MS: 20000 });
    expect(problemsWith({ WEBHOOK_TIMEOUT_MS: '30000', SHUTDOWN_TIMEOUT_MS: '31000' })).toEqual([]);
    expect(problemsWith({ WEBHOOK_TIMEOUT_MS: '30001', SHUTDOWN_TIMEOUT_MS: '40000' })).toEqual(refusedNaming('WEBHOOK_TIMEOUT_MS'));
    // A stop that does not outlast an attempt on the wire would exit before recording its outcome.
    for (const [timeout, shutdown] of [
      ['30000', undefined],
      ['15000', '15000'],
      ['12000', '10000'],
    ]) {
      const env = { WEBHOOK_TIMEOUT_MS: timeout!, ...(shutdown ? { SHUTDOWN_TIMEOUT_MS: shutdown } : {}) };
      expect(problemsWith(env)).toEqual(refusedNaming('SHUTDOWN_TIMEOUT_MS'));
    }
  });

  describe('a production start (NODE_ENV=production)', () => {
    const SIGN_IN_SECRETS: Record<string, string> = {
      OIDC_JWKS: JSON.stringify({ keys: [generateSigningKey('production')] }),
      OIDC_COOKIE_KEYS: 'k'.repeat(40),
      OIDC_CLIENT_SECRET_KEY: 's'.repeat(43),
      DATABASE_URL: 'postgres://identity@db/identity',
      OIDC_ISSUER: 'https://id.example.com/oidc',
      OIDC_MCP_RESOURCE: 'https://platform.example.com/mcp',
    };
    const DEVELOPMENT_SWITCHES = ['OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES', 'WEBHOOK_ALLOW_LOOPBACK', 'PASSWORD_SETUP_LINKS_IN_LOG'];

    it('is refused without the sign-in secrets, naming each one to set', () => {
      const { OIDC_JWKS: _k, OIDC_COOKIE_KEYS: _c, OIDC_CLIENT_SECRET_KEY: _s, ...deployment } = SIGN_IN_SECRETS;
      expect(problemsWith({ NODE_ENV: 'production', ...deployment })).toEqual([
        'OIDC_JWKS: must be set when NODE_ENV=production (unset, identity generates signing keys for development and keeps them under DATA_DIR)',
        'OIDC_COOKIE_KEYS: must be set when NODE_ENV=production (unset, identity generates a cookie key for development and keeps it under DATA_DIR)',
        'OIDC_CLIENT_SECRET_KEY: must be set when NODE_ENV=production (unset, identity generates the key sealing client secrets for development and keeps it under DATA_DIR)',
      ]);
      for (const [variable] of Object.entries(SIGN_IN_SECRETS)) {
        const { [variable]: _left, ...others } = SIGN_IN_SECRETS;
        expect(problemsWith({ NODE_ENV: 'production', ...others })).toEqual([
          expect.stringMatching(new RegExp(`^${variable}: must be set when NODE_ENV=production`)),
        ]);
      }
    });

    it.each(DEVELOPMENT_SWITCHES)('is refused with the development switch %s on, naming it', (variable) => {
      expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, [variable]: 'true' })).toEqual([
        `${variable}: is for development and tests only: NODE_ENV=production refuses it on`,
      ]);
      expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, [variable]: 'false' })).toEqual([]);
    });

    it('starts with the sign-in secrets set and the development switches off', () => {
      expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS })).toEqual([]);
      // WEBHOOK_ALLOW_PRIVATE_ADDRESSES is for deployments whose partners are inside: not a development switch.
      expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' })).toEqual([]);
    });

    const PUBLISHED =
      'holds a value published with the project (a "dev-only-…" default of docker-compose.yml or a "REPLACE…" placeholder of deploy/k8s): NODE_ENV=production refuses it';

    it('is refused with a service token published with the project (docker-compose.yml’s dev-only defaults), naming the variable', () => {
      const published = 'standards-api:dev-only-standards-api-service-token-0001';
      const fresh = `mcp-gateway:${'Qx7'.repeat(15)}`;
      for (const tokens of [published, `${fresh},${published}`]) {
        const rights = tokens.includes('mcp-gateway') ? 'standards-api=decisions,mcp-gateway=decisions' : 'standards-api=decisions';
        expect(
          problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, DECISION_SERVICE_TOKENS: tokens, SERVICE_RIGHTS: rights }),
        ).toEqual([`DECISION_SERVICE_TOKENS: ${PUBLISHED}`]);
      }
      expect(
        problemsWith({
          NODE_ENV: 'production',
          ...SIGN_IN_SECRETS,
          DECISION_SERVICE_TOKENS: fresh,
          SERVICE_RIGHTS: 'mcp-gateway=decisions',
        }),
      ).toEqual([]);
      expect(problemsWith({ NODE_ENV: 'development', DECISION_SERVICE_TOKENS: published })).toEqual([]);
    });

    it.each([
      ['DECISION_SERVICE_TOKENS', 'standards-api:REPLACE_standards_api_service_token_32_characters_or_more'],
      ['OIDC_JWKS', '{"keys":[{"REPLACE":"with private signing keys"}]}'],
      ['OIDC_COOKIE_KEYS', 'REPLACE_cookie_signing_key_32_characters_or_more'],
      ['OIDC_CLIENT_SECRET_KEY', 'REPLACE_32_bytes_in_base64url_43_characters'],
      ['OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN', 'REPLACE_registration_token_32_characters_or_more'],
    ])(
      'is refused with %s left at a deploy/k8s placeholder, naming it (development does not refuse it as published)',
      (variable, placeholder) => {
        const rights: Record<string, string> = variable === 'DECISION_SERVICE_TOKENS' ? { SERVICE_RIGHTS: 'standards-api=decisions' } : {};
        // The JWKS placeholder holds no key either (refused in any environment, for that).
        const unusable = variable === 'OIDC_JWKS' ? ['OIDC_JWKS: key 0 has no kid'] : [];
        expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, ...rights, [variable]: placeholder })).toEqual([
          ...unusable,
          `${variable}: ${PUBLISHED}`,
        ]);
        expect(problemsWith({ NODE_ENV: 'development', [variable]: placeholder })).toEqual(unusable);
      },
    );

    it('is refused with service credentials and no SERVICE_RIGHTS: each credential would hold every service route, event handover included', () => {
      const tokens = `standards-api:${'a'.repeat(32)},mcp-gateway:${'b'.repeat(32)}`;
      expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, DECISION_SERVICE_TOKENS: tokens })).toEqual([
        'SERVICE_RIGHTS: must be set when NODE_ENV=production and DECISION_SERVICE_TOKENS is (unset, every service credential may use every service route, event handover included)',
      ]);
      const rights = 'standards-api=decisions+event-handover,mcp-gateway=decisions+token-exchange';
      expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, DECISION_SERVICE_TOKENS: tokens, SERVICE_RIGHTS: rights })).toEqual(
        [],
      );
      // Without credentials every service route is refused anyway; development keeps the old default.
      expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS })).toEqual([]);
      expect(problemsWith({ DECISION_SERVICE_TOKENS: tokens })).toEqual([]);
    });

    it.each(['OIDC_ISSUER', 'OIDC_MCP_RESOURCE'])(
      'is refused with %s on http:// to a host other than this machine: sign-ins and tokens would travel in clear',
      (variable) => {
        const url = (origin: string) => `${origin}/${variable === 'OIDC_ISSUER' ? 'oidc' : 'mcp'}`;
        expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, [variable]: url('http://id.example.com') })).toEqual([
          `${variable}: must be https:// when NODE_ENV=production (http only to this machine: localhost, 127.0.0.1, [::1])`,
        ]);
        for (const origin of ['https://id.example.com', 'http://localhost:8081', 'http://127.0.0.1:3003', 'http://[::1]:3003']) {
          expect(problemsWith({ NODE_ENV: 'production', ...SIGN_IN_SECRETS, [variable]: url(origin) })).toEqual([]);
        }
        expect(problemsWith({ [variable]: url('http://id.example.com') })).toEqual([]);
      },
    );

    it("is refused without the issuer or the gateway's resource: their defaults are this machine's, which no client elsewhere reaches", () => {
      for (const variable of ['OIDC_ISSUER', 'OIDC_MCP_RESOURCE']) {
        const { [variable]: _left, ...others } = SIGN_IN_SECRETS;
        expect(problemsWith({ NODE_ENV: 'production', ...others })).toEqual([
          expect.stringMatching(new RegExp(`^${variable}: must be set when NODE_ENV=production \\(unset, .*only this machine reaches\\)$`)),
        ]);
        expect(problemsWith({ ...others })).toEqual([]);
      }
    });

    it('is the only start that refuses them: without NODE_ENV or with another value, as npm start runs, they are taken', () => {
      const development = Object.fromEntries(DEVELOPMENT_SWITCHES.map((variable) => [variable, 'true']));
      for (const nodeEnv of [undefined, 'development', 'test', 'staging']) {
        expect(problemsWith({ ...(nodeEnv === undefined ? {} : { NODE_ENV: nodeEnv }), ...development })).toEqual([]);
      }
    });
  });
});
