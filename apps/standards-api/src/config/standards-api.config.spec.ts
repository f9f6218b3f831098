import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ConfigValidationError, loadConfig } from '@stdreg/server-kit';
import { StandardsApiConfig } from './standards-api.config';

/** The problems a start with `env` is refused for, or [] when it starts. */
function problemsWith(env: Record<string, string>): string[] {
  try {
    loadConfig(StandardsApiConfig, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
}

describe("standards-api's configuration", () => {
  it('starts with the defaults', () => {
    expect(problemsWith({})).toEqual([]);
  });

  it('refuses an IDENTITY_URL without an http(s) scheme, naming it (every protected request would fail)', () => {
    for (const value of ['identity:3003', '127.0.0.1:3003', 'identity.example.com', 'ftp://identity.example.com']) {
      expect(problemsWith({ IDENTITY_URL: value })).toEqual([expect.stringMatching(/^IDENTITY_URL: /)]);
    }
    expect(problemsWith({ IDENTITY_URL: 'http://identity:3003' })).toEqual([]);
  });

  it('refuses an IDENTITY_URL with a query or fragment, naming it, and takes one with a path (identity behind a proxy)', () => {
    for (const value of ['http://proxy:8080/identity?tenant=a', 'http://proxy:8080/identity#v1', 'http://identity:3003/?']) {
      expect(problemsWith({ IDENTITY_URL: value })).toEqual([
        expect.stringMatching(/^IDENTITY_URL: IDENTITY_URL must be .*without a query or fragment/),
      ]);
    }
    expect(problemsWith({ IDENTITY_URL: 'http://proxy:8080/identity/' })).toEqual([]);
  });

  it('refuses an IDENTITY_URL with credentials, naming it and not quoting them (the event relay logged its fetch error, which quotes the URL)', () => {
    const problems = problemsWith({ IDENTITY_URL: 'http://svc:S3cretPW@identity:3003' });
    expect(problems).toEqual([expect.stringMatching(/^IDENTITY_URL: IDENTITY_URL must be an http\(s\) URL without credentials/)]);
    expect(problems.join(' ')).not.toContain('S3cretPW');
  });

  it.each(['CONTENT_REFRESH_SECONDS', 'EVENT_RELAY_INTERVAL_MS', 'EVENT_RELAY_TIMEOUT_MS', 'AUTHZ_TIMEOUT_MS', 'PURGE_INTERVAL_MS'])(
    'refuses %s of zero, negative or not a whole number',
    (variable) => {
      for (const value of ['0', '-1', '1.5', 'soon']) {
        expect(problemsWith({ [variable]: value })).toEqual([expect.stringMatching(new RegExp(`^${variable}: `))]);
      }
    },
  );

  it('refuses an AUTHZ_READ_CACHE_MS above the second an allow may be reused, or negative', () => {
    for (const value of ['1001', '-1'])
      expect(problemsWith({ AUTHZ_READ_CACHE_MS: value })).toEqual([expect.stringMatching(/^AUTHZ_READ_CACHE_MS: /)]);
    expect(problemsWith({ AUTHZ_READ_CACHE_MS: '0' })).toEqual([]);
  });

  it('refuses an IDENTITY_SERVICE_TOKEN identity could never accept (short, spaced, a line break from a file), naming it', () => {
    for (const value of ['short', `${'a'.repeat(40)}\n`, `${'a'.repeat(20)} ${'a'.repeat(20)}`]) {
      expect(problemsWith({ IDENTITY_SERVICE_TOKEN: value })).toEqual([
        "IDENTITY_SERVICE_TOKEN: must be 32-200 characters of [A-Za-z0-9_-], as its token in identity's DECISION_SERVICE_TOKENS",
      ]);
    }
    expect(problemsWith({ IDENTITY_SERVICE_TOKEN: 'a'.repeat(43) })).toEqual([]);
  });

  it('refuses a CONTENT_PACK_DIR that is not a folder that exists, naming it', () => {
    for (const value of ['/nonexistent/pack', fileURLToPath(import.meta.url)]) {
      expect(problemsWith({ CONTENT_PACK_DIR: value })).toEqual([
        'CONTENT_PACK_DIR: must be a folder that exists (the content pack to import)',
      ]);
    }
    expect(problemsWith({ CONTENT_PACK_DIR: tmpdir() })).toEqual([]);
  });

  it('is refused in production without a DATABASE_URL: each replica would keep its data in an embedded database of its own', () => {
    expect(problemsWith({ NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(/^DATABASE_URL: must be set when NODE_ENV=production and the service has a database/),
    ]);
    expect(problemsWith({ NODE_ENV: 'production', DATABASE_URL: 'postgres://stdreg@db/standards' })).toEqual([]);
  });
});
