// Requests at identity's browser and OAuth surface, which no OpenAPI document lists: the OpenID Provider
// under its mount, the sign-in pages and the password-setup pages. Parameters valid-ish or hostile, in the
// query or a form body, repeated, as arrays, badly percent-encoded; JSON where a form is expected and the
// reverse, multipart, raw bytes, bodies past the limits; cookies, CSRF values and client credentials real,
// forged or odd. The valid starts (a registered client and its redirect URI, live interactions with their
// cookies, unspent password-setup tokens, issued access tokens) take the fuzzer past the first checks.
import fc from 'fast-check';
import { hostileJson, hostileText } from './hostile-values';
import { headerSafe, percentEncoded, RAW_SEGMENTS, type HostileRequest } from './hostile-request';

export interface FormSurface {
  /** Where the OpenID Provider is mounted, e.g. `/oidc`. */
  issuerPath: string;
  /** A partner app's registered client. */
  client: { clientId: string; clientSecret: string; redirectUri: string };
  /** The API the client gets access tokens for (its resource indicator). */
  resource: string;
  /** An interaction at the login prompt, with the cookies of the browser that started it. */
  loginInteraction: { uid: string; cookie: string };
  /** An interaction at the consent prompt of a signed-in person, with that browser's cookies (its session among them). */
  consentInteraction: { uid: string; cookie: string };
  /** An interaction whose login is done, to be resumed at the authorization endpoint, with its browser's cookies (the first resume ends it). */
  resumeInteraction: { uid: string; cookie: string };
  /** The person who signs in on those pages. */
  person: { email: string; password: string };
  /** Unspent password-setup tokens. */
  setupTokens: string[];
  /** Access tokens issued to the client. */
  accessTokens: string[];
  /** The double-submit CSRF value the requests' cookie and form carry when they are meant to match. */
  csrf: string;
  /** A PKCE verifier and its S256 challenge. */
  pkce: { verifier: string; challenge: string };
}

/** One endpoint: its path pattern (the report's and the write rule's name), the methods it serves, the fields it reads. */
interface Endpoint {
  pattern: string;
  methods: string[];
  path: fc.Arbitrary<string>;
  fields: Record<string, fc.Arbitrary<string>>;
  /** The body a client sends it: a form (the default), JSON (registration), or none. */
  body?: 'json' | 'none';
  /** Two fields a client sends equal (a password and its confirmation): equal half of the time. */
  equal?: [string, string];
  /** The cookies of the browser that would call it. */
  cookie?: string;
  /** What its own client sends: these fields (all of them by default), and this client authentication. */
  valid?: { fields?: string[]; authorization?: 'basic' | 'bearer' | 'none' };
}

/** The parameters of an authorization request as a partner app sends them. */
const AUTHORIZATION_REQUEST = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'resource',
];

const HOSTILE_METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'FOO', 'GET', 'POST'];

/** Percent-encodings no encoder makes: not UTF-8, overlong, truncated, NUL and CR LF. */
const BAD_ENCODINGS = [
  '%',
  '%zz',
  '%E',
  '%ED%A0%80',
  '%FF%FE',
  '%C0%AE',
  '%C0%80',
  '%00',
  '%0D%0AX-Injected:%201',
  '%F4%90%80%80',
  '%2',
  '%%32%30',
];

const MARKUP = ['"><svg onload=alert(1)>', '<script>alert(1)</script>', "'><img src=x onerror=alert(1)>", 'javascript:alert(1)'];

/** Text for one field: hostile text cut to `max`, markup, or a value past every column. */
function hostileValue(max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: hostileText().map((text) => text.slice(0, max)) },
    { weight: 1, arbitrary: fc.constantFrom(...MARKUP) },
    { weight: 1, arbitrary: fc.integer({ min: 2_000, max: Math.max(2_001, Math.min(max, 60_000)) }).map((n) => 'a'.repeat(n)) },
  );
}

const token43 = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
  minLength: 43,
  maxLength: 43,
});
/** The valid values behind a field's arbitrary (what a valid start sends). */
const VALID = new WeakMap<fc.Arbitrary<string>, fc.Arbitrary<string>>();
/** A valid value most often, else one of the others. */
function often(valid: fc.Arbitrary<string>, others: fc.Arbitrary<string>[]): fc.Arbitrary<string> {
  const arbitrary = fc.oneof({ weight: others.length + 2, arbitrary: valid }, ...others.map((other) => ({ weight: 1, arbitrary: other })));
  VALID.set(arbitrary, valid);
  return arbitrary;
}
const one = (...values: string[]) => fc.constantFrom(...values);

function endpoints(s: FormSurface): Endpoint[] {
  const { clientId, clientSecret, redirectUri } = s.client;
  const clientIdValue = often(fc.constant(clientId), [
    one('unknown-client', 'https://127.0.0.1/client.json', 'https://localhost:1/c', `${clientId} `),
  ]);
  const redirect = often(fc.constant(redirectUri), [
    one(
      `${redirectUri}/more`,
      redirectUri.replace('127.0.0.1', 'localhost'),
      `${redirectUri}?next=https://evil.example`,
      `${redirectUri}#frag`,
    ),
    one('https://evil.example/cb', '//evil.example/cb', 'javascript:alert(1)', 'data:text/html,<b>x</b>', `${redirectUri.toUpperCase()}`),
    fc.integer({ min: 2_000, max: 6_000 }).map((n) => `${redirectUri}?${'a'.repeat(n)}`),
  ]);
  const scope = often(one('openid api', 'openid', 'openid profile email offline_access api'), [
    one('api', 'openid openid', 'registry:read projects:draft', 'openid unknown-scope', 'OPENID'),
    fc.integer({ min: 200, max: 1_000 }).map((n) => 'openid '.repeat(n).trim()),
  ]);
  const opaque = often(token43, [fc.integer({ min: 2_000, max: 6_000 }).map((n) => 'z'.repeat(n))]);
  const challenge = often(fc.constant(s.pkce.challenge), [
    one('short', 'a'.repeat(129), 'a+b/c='.repeat(8), ''),
    fc.integer({ min: 2_000, max: 6_000 }).map((n) => 'c'.repeat(n)),
  ]);
  const verifier = often(fc.constant(s.pkce.verifier), [token43, one('short', 'v'.repeat(129), '~'.repeat(43), '')]);
  const resource = often(fc.constant(s.resource), [
    one('https://evil.example/', 'urn:other', 'api', `${s.resource}#x`, 'http://127.0.0.1:1/mcp', ''),
  ]);
  const secret = often(fc.constant(clientSecret), [
    one('wrong', `${clientSecret}x`, ''),
    fc.integer({ min: 2_000, max: 20_000 }).map((n) => 's'.repeat(n)),
  ]);
  const accessToken = often(fc.constantFrom(...s.accessTokens), [token43, one('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'a.b.c')]);
  const jwtLike = one('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', 'eyJhbGciOiJub25lIn0.e30.', 'not.a.jwt', 'a.b.c.d.e');
  const csrf = often(fc.constant(s.csrf), [token43, one(`${s.csrf}x`, s.csrf.slice(1), '')]);
  const password = often(fc.constant(s.person.password), [one('wrong password', 'another long and unusual passphrase', 'short', '')]);
  const setupPassword = often(one('a brand new and rather long passphrase'), [
    one('short', 'password', s.person.email),
    fc.constant('p'.repeat(20_000)),
  ]);
  const interactionUid = (uid: string) =>
    often(fc.constant(uid), [one(s.loginInteraction.uid, s.consentInteraction.uid), token43, fc.constantFrom(...RAW_SEGMENTS)]);
  const authorization: Record<string, fc.Arbitrary<string>> = {
    client_id: clientIdValue,
    redirect_uri: redirect,
    response_type: often(one('code'), [one('token', 'id_token', 'code id_token', 'none', 'code token', 'CODE', '')]),
    scope,
    state: opaque,
    nonce: opaque,
    code_challenge: challenge,
    code_challenge_method: often(one('S256'), [one('plain', 's256', 'none', '')]),
    resource,
    prompt: one('login', 'consent', 'none', 'login consent', 'select_account', 'create'),
    max_age: one('0', '3600', '-1', '1e999', 'abc'),
    ui_locales: one('en', 'zh-Hans', 'xx', 'en zh-Hans'),
    response_mode: one('query', 'form_post', 'fragment', 'jwt', 'web_message', 'query.jwt'),
    request: jwtLike,
    request_uri: one('urn:ietf:params:oauth:request_uri:abc', 'https://127.0.0.1:1/request', 'urn:x'),
    claims: one('{"id_token":{"email":null}}', '{', '{"userinfo":{"__proto__":{"x":1}}}', '[]'),
    id_token_hint: jwtLike,
    login_hint: one(s.person.email, 'nobody@example.com', ...MARKUP),
  };
  const clientAuth = { client_id: clientIdValue, client_secret: secret };
  const signinForm = {
    csrf,
    // A failed login shows the email again: markup there must come back escaped.
    email: often(fc.constant(s.person.email), [one('nobody@example.com', ` ${s.person.email.toUpperCase()} `, ''), one(...MARKUP)]),
    password,
  };
  const consentCookie = s.consentInteraction.cookie;
  const loginCookie = s.loginInteraction.cookie;
  const oidc = (path: string) => `${s.issuerPath}${path}`;
  const setupToken = often(fc.constantFrom(...s.setupTokens), [token43, one('short'), fc.constantFrom(...RAW_SEGMENTS)]);
  return [
    // POST is off at the authorization and end-session endpoints (the provider's default): it comes as a hostile method.
    {
      pattern: oidc('/auth'),
      methods: ['GET'],
      path: fc.constant(oidc('/auth')),
      fields: authorization,
      cookie: consentCookie,
      valid: { fields: AUTHORIZATION_REQUEST, authorization: 'none' },
    },
    {
      pattern: oidc('/auth/{uid}'),
      methods: ['GET'],
      path: interactionUid(s.resumeInteraction.uid).map((uid) => oidc(`/auth/${uid}`)),
      fields: {},
      cookie: s.resumeInteraction.cookie,
    },
    {
      pattern: oidc('/request'),
      methods: ['POST'],
      path: fc.constant(oidc('/request')),
      fields: { ...authorization, ...clientAuth },
      valid: { fields: AUTHORIZATION_REQUEST, authorization: 'basic' },
    },
    {
      pattern: oidc('/token'),
      methods: ['POST'],
      path: fc.constant(oidc('/token')),
      fields: {
        grant_type: often(one('authorization_code', 'refresh_token'), [
          one(
            'client_credentials',
            'urn:ietf:params:oauth:grant-type:token-exchange',
            'urn:ietf:params:oauth:grant-type:device_code',
            'password',
            'implicit',
            '',
          ),
        ]),
        code: opaque,
        code_verifier: verifier,
        redirect_uri: redirect,
        refresh_token: opaque,
        resource,
        scope,
        subject_token: accessToken,
        subject_token_type: one('urn:ietf:params:oauth:token-type:access_token', 'x'),
        ...clientAuth,
      },
      valid: { fields: ['grant_type', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'resource'], authorization: 'basic' },
    },
    {
      pattern: oidc('/token/revocation'),
      methods: ['POST'],
      path: fc.constant(oidc('/token/revocation')),
      fields: { token: accessToken, token_type_hint: one('access_token', 'refresh_token', 'x'), ...clientAuth },
      valid: { fields: ['token', 'token_type_hint'], authorization: 'basic' },
    },
    {
      pattern: oidc('/token/introspection'),
      methods: ['POST'],
      path: fc.constant(oidc('/token/introspection')),
      fields: { token: accessToken, ...clientAuth },
    },
    {
      pattern: oidc('/reg'),
      methods: ['POST'],
      path: fc.constant(oidc('/reg')),
      fields: {},
      body: 'json',
      valid: { authorization: 'none' },
    },
    {
      pattern: oidc('/reg/{clientId}'),
      methods: ['GET', 'PUT', 'DELETE'],
      path: clientIdValue.map((id) => oidc(`/reg/${percentEncoded(id)}`)),
      fields: {},
      body: 'none',
    },
    {
      pattern: oidc('/me'),
      methods: ['GET', 'POST'],
      path: fc.constant(oidc('/me')),
      fields: { access_token: accessToken },
      valid: { fields: [], authorization: 'bearer' },
    },
    { pattern: oidc('/jwks'), methods: ['GET'], path: fc.constant(oidc('/jwks')), fields: {}, body: 'none' },
    {
      pattern: oidc('/.well-known/openid-configuration'),
      methods: ['GET'],
      path: one(oidc('/.well-known/openid-configuration'), `/.well-known/oauth-authorization-server${s.issuerPath}`),
      fields: {},
      body: 'none',
    },
    {
      pattern: oidc('/session/end'),
      methods: ['GET'],
      path: fc.constant(oidc('/session/end')),
      fields: {
        id_token_hint: jwtLike,
        post_logout_redirect_uri: redirect,
        client_id: clientIdValue,
        state: opaque,
        ui_locales: one('en', 'zh-Hans', 'xx'),
        logout_hint: one(s.person.email),
      },
      cookie: consentCookie,
      valid: { fields: ['post_logout_redirect_uri', 'client_id', 'state'], authorization: 'none' },
    },
    {
      pattern: oidc('/session/end/confirm'),
      methods: ['POST'],
      path: fc.constant(oidc('/session/end/confirm')),
      fields: { xsrf: opaque, logout: one('yes', 'no', '') },
      cookie: consentCookie,
    },
    {
      pattern: oidc('/session/end/success'),
      methods: ['GET'],
      path: fc.constant(oidc('/session/end/success')),
      fields: { client_id: clientIdValue, state: opaque },
    },
    {
      pattern: '/v1/signin/{uid}',
      methods: ['GET'],
      path: interactionUid(s.loginInteraction.uid).map((uid) => `/v1/signin/${uid}`),
      fields: { lang: one('en', 'zh-Hans', 'xx') },
      cookie: loginCookie,
    },
    {
      pattern: '/v1/signin/{uid}/login',
      methods: ['POST'],
      path: interactionUid(s.loginInteraction.uid).map((uid) => `/v1/signin/${uid}/login`),
      fields: signinForm,
      cookie: loginCookie,
    },
    {
      pattern: '/v1/signin/{uid}/consent',
      methods: ['POST'],
      path: interactionUid(s.consentInteraction.uid).map((uid) => `/v1/signin/${uid}/consent`),
      fields: { csrf, decision: often(one('allow', 'deny'), [one('ALLOW', 'allow ', '')]) },
      cookie: consentCookie,
    },
    {
      pattern: '/v1/signin/{uid}/abort',
      methods: ['POST'],
      path: interactionUid(s.loginInteraction.uid).map((uid) => `/v1/signin/${uid}/abort`),
      fields: { csrf },
      cookie: loginCookie,
    },
    {
      pattern: '/v1/password-setup/{token}',
      methods: ['GET', 'POST'],
      path: setupToken.map((token) => `/v1/password-setup/${token}`),
      fields: { csrf, password: setupPassword, confirm: setupPassword, lang: one('en', 'zh-Hans') },
      equal: ['password', 'confirm'],
    },
  ];
}

/** `name=value` pairs as a client would write them, or not: repeated, as arrays, badly encoded, without a value. */
function encodedPairs(pairs: [string, string][]): fc.Arbitrary<string[]> {
  return fc
    .tuple(
      ...pairs.map(([name, value]) =>
        fc.oneof(
          { weight: 12, arbitrary: fc.constant([`${percentEncoded(name)}=${percentEncoded(value)}`]) },
          {
            weight: 1,
            arbitrary: hostileValue(2_000).map((other) => [`${name}=${percentEncoded(value)}`, `${name}=${percentEncoded(other)}`]),
          },
          {
            weight: 1,
            arbitrary: one('[]', '[0]', '[a]', '[__proto__]', '[][]').map((suffix) => [
              `${percentEncoded(name)}${suffix}=${percentEncoded(value)}`,
            ]),
          },
          { weight: 1, arbitrary: fc.constantFrom(...BAD_ENCODINGS).map((bad) => [`${name}=${percentEncoded(value.slice(0, 20))}${bad}`]) },
          { weight: 1, arbitrary: fc.constant([name]) },
        ),
      ),
    )
    .map((lists) => lists.flat());
}

const multipart = (pairs: [string, string][], boundary: string) =>
  [
    ...pairs.map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    `--${boundary}--\r\n`,
  ].join('');

/** The body and its Content-Type lines: a form most often, else JSON, multipart, raw bytes, UTF-16, nothing, or past the limits. */
function formBody(
  pairs: [string, string][],
  kind: Endpoint['body'],
): fc.Arbitrary<Pick<HostileRequest, 'body' | 'bodyEncoding'> & { contentType: string[] }> {
  const form = 'application/x-www-form-urlencoded';
  const object = Object.fromEntries(pairs);
  const jsonBody = fc.oneof(
    { weight: 4, arbitrary: fc.constant(JSON.stringify(object)) },
    { weight: 2, arbitrary: hostileJson().map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.constant(JSON.stringify(Object.fromEntries(pairs.map(([name, value]) => [name, [value, value]])))) },
  );
  const contentTypes = (usual: string) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant<string[]>([usual]) },
      {
        weight: 2,
        arbitrary: one(
          `${usual}; charset=utf-8`,
          `${usual}; charset=iso-8859-1`,
          `${usual}; charset=utf-16le`,
          `${usual}; charset=nonsense`,
          usual.toUpperCase(),
        ).map((type) => [type]),
      },
      {
        weight: 1,
        arbitrary: one('application/json', form, 'text/plain', 'multipart/form-data; boundary=xyz', '', '*/*').map((type) => [type]),
      },
      { weight: 1, arbitrary: fc.constant<string[]>([]) },
      { weight: 1, arbitrary: fc.constant<string[]>([usual, 'application/json']) },
    );
  const formText = encodedPairs(pairs).map((list) => list.join('&'));
  const usual = kind === 'json' ? 'application/json' : form;
  return fc.oneof(
    { weight: 8, arbitrary: fc.record({ body: kind === 'json' ? jsonBody : formText, contentType: contentTypes(usual) }) },
    // The other format than the endpoint reads, with either content type.
    {
      weight: 2,
      arbitrary: fc.record({
        body: kind === 'json' ? formText : jsonBody,
        contentType: contentTypes(kind === 'json' ? form : 'application/json'),
      }),
    },
    {
      weight: 1,
      arbitrary: one('xyz', 'other').map((boundary) => ({
        body: multipart(pairs, 'xyz'),
        contentType: [`multipart/form-data; boundary=${boundary}`],
      })),
    },
    { weight: 1, arbitrary: contentTypes(usual).map((contentType) => ({ body: '', contentType })) },
    // Raw bytes that are not UTF-8, and the form in UTF-16.
    {
      weight: 1,
      arbitrary: fc.constantFrom('\xff\xfe', '\xc0\xae', '\xed\xa0\x80', '\x80', '\x00').map((bytes) => ({
        body: pairs.map(([name, value]) => `${name}=${value.slice(0, 40)}${bytes}`).join('&') || `a=${bytes}`,
        bodyEncoding: 'latin1' as const,
        contentType: [`${usual}; charset=utf-8`],
      })),
    },
    {
      weight: 1,
      arbitrary: formText.map((text) => ({
        body: Buffer.from(text, 'utf16le').toString('latin1'),
        bodyEncoding: 'latin1' as const,
        contentType: [`${usual}; charset=utf-16le`],
      })),
    },
    // Past a form's limit (16 KiB at the pages, the provider's own for its endpoints) and within it.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(15_000, 60_000, 1_100_000)
        .chain((size) => formText.map((text) => ({ body: `${text}&pad=${'a'.repeat(size)}`, contentType: [usual] }))),
    },
  );
}

/** RFC 7591 registration metadata, valid-ish or not. */
function registration(s: FormSurface): fc.Arbitrary<[string, string][]> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {
    redirect_uris: fc.oneof(
      fc.constant([s.client.redirectUri]),
      fc.constant(['http://127.0.0.1:1/cb']),
      fc.constant(['https://evil.example/cb', 'javascript:alert(1)']),
      fc.constant('http://127.0.0.1:1/cb'),
      fc.constant([]),
      fc.array(hostileValue(2_000), { maxLength: 3 }),
    ),
    client_name: fc.oneof(fc.constant('Fuzz Agent'), hostileValue(100_000)),
    token_endpoint_auth_method: one('none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt', 'tls_client_auth', 'x'),
    grant_types: fc.oneof(
      fc.constant(['authorization_code', 'refresh_token']),
      fc.constant(['client_credentials']),
      fc.constant(['implicit']),
      fc.constant('authorization_code'),
    ),
    response_types: fc.oneof(fc.constant(['code']), fc.constant(['token']), fc.constant(['code id_token'])),
    scope: one('registry:read projects:read', 'openid api', 'x'),
    application_type: one('native', 'web', 'x'),
    jwks_uri: one('https://127.0.0.1:1/jwks', 'http://169.254.169.254/latest'),
    jwks: fc.oneof(fc.constant({ keys: [] }), fc.constant({ keys: [{ kty: 'oct', k: 'AAAA' }] }), hostileJson()),
    sector_identifier_uri: one('https://127.0.0.1:1/sector'),
    logo_uri: one('javascript:alert(1)', 'https://127.0.0.1:1/logo.png'),
    software_statement: one('eyJhbGciOiJub25lIn0.e30.', 'x'),
    client_id: one(s.client.clientId, 'chosen-id'),
  };
  return fc
    .record(fields, { requiredKeys: [] })
    .map((record) =>
      Object.entries(record).map(
        ([name, value]) => [name, typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null')] as [string, string],
      ),
    );
}

/** Cookie header lines: the calling browser's own (with the CSRF cookie), forged, odd, many, or none. */
function cookieHeaders(s: FormSurface, browser: string | undefined): fc.Arbitrary<[string, string][]> {
  const own = [browser, `stdreg_csrf=${s.csrf}`].filter(Boolean).join('; ');
  const line = (value: string): [string, string][] => [['cookie', value]];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<[string, string][]>(line(own)) },
    { weight: 2, arbitrary: fc.constant<[string, string][]>([]) },
    { weight: 1, arbitrary: token43.map((forged) => line([browser, `stdreg_csrf=${forged}`].filter(Boolean).join('; '))) },
    {
      weight: 2,
      arbitrary: one(
        'stdreg_csrf=',
        `stdreg_csrf=${s.csrf}; stdreg_csrf=${'b'.repeat(43)}`,
        '_interaction=..%2f..; _interaction.sig=x',
        '_session=x; _session.sig=y; _session.legacy=z',
        `${own}; ${own}`,
        ';;;=;=a; =b',
        `stdreg_csrf=${s.csrf}\t; x=\x7f\x80\xff`,
      ).map(line),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 100, max: 600 }).map((n) => line(Array.from({ length: n }, (_, i) => `c${i}=${i}`).join('; '))),
    },
    { weight: 1, arbitrary: fc.integer({ min: 4_000, max: 12_000 }).map((n) => line(`${own}; big=${'c'.repeat(n)}`)) },
    { weight: 1, arbitrary: hostileText().map((text) => line(headerSafe(text, 8_000))) },
    { weight: 1, arbitrary: fc.constant<[string, string][]>([...line(`stdreg_csrf=${s.csrf}`), ...line(browser ?? 'a=b')]) },
  );
}

const base64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

/** Authorization (client authentication, bearer tokens) and DPoP lines: real, wrong, malformed or huge. */
function authorizationHeaders(s: FormSurface): fc.Arbitrary<[string, string][]> {
  const { clientId, clientSecret } = s.client;
  const basic = (id: string, secret: string) => `Basic ${base64(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`)}`;
  const values = fc.oneof(
    { weight: 4, arbitrary: fc.constant(basic(clientId, clientSecret)) },
    { weight: 2, arbitrary: fc.constantFrom(...s.accessTokens).map((token) => `Bearer ${token}`) },
    {
      weight: 3,
      arbitrary: one(
        basic(clientId, 'wrong'),
        basic('unknown-client', clientSecret),
        `Basic ${base64(`${clientId}${clientSecret}`)}`,
        `Basic ${base64(':')}`,
        'Basic !!!not-base64!!!',
        'Basic',
        'Basic  ',
        `basic ${base64(`${clientId}:${clientSecret}`)}`,
        `Basic ${base64(`${clientId}:${clientSecret}`)}, Basic ${base64('a:b')}`,
        `Basic ${base64(`%ZZ:%ED%A0%80`)}`,
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
        `DPoP ${s.accessTokens[0] ?? 'x'}`,
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 4_000, max: 12_000 }).map((n) => basic(clientId, 's'.repeat(n))) },
    { weight: 1, arbitrary: hostileText().map((text) => `Basic ${base64(headerSafe(text, 6_000))}`) },
  );
  const dpop = one('x.y.z', 'eyJhbGciOiJFUzI1NiIsInR5cCI6ImRwb3Arand0In0.e30.AAAA', 'eyJhbGciOiJub25lIiwidHlwIjoiZHBvcCtqd3QifQ.e30.', '');
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
    { weight: 5, arbitrary: values.map((value) => [['authorization', value]] as [string, string][]) },
    {
      weight: 1,
      arbitrary: fc.tuple(values, values).map(
        ([a, b]) =>
          [
            ['authorization', a],
            ['authorization', b],
          ] as [string, string][],
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(values, dpop).map(
        ([value, proof]) =>
          [
            ['authorization', value],
            ['dpop', proof],
          ] as [string, string][],
      ),
    },
  );
}

function extraHeaders(): fc.Arbitrary<[string, string][]> {
  const names = [
    'accept-language',
    'accept',
    'origin',
    'referer',
    'x-forwarded-for',
    'x-forwarded-host',
    'x-forwarded-proto',
    'sec-fetch-site',
  ];
  return fc.array(
    fc.tuple(
      fc.constantFrom(...names),
      hostileText().map((text) => headerSafe(text)),
    ),
    { maxLength: 2, size: 'xsmall' },
  );
}

/**
 * Requests at one endpoint as its own client sends them: its method, every field it reads (valid most often),
 * well encoded where it belongs, the calling browser's cookies, the client's credentials or none. These get
 * past the first checks, so the hostile requests meet the state the valid ones leave.
 */
function validStart(endpoint: Endpoint, s: FormSurface): fc.Arbitrary<HostileRequest> {
  const sent = endpoint.valid?.fields;
  const entries = Object.entries(endpoint.fields).filter(([name]) => !sent || sent.includes(name));
  const fields =
    endpoint.body === 'json'
      ? fc.constant<[string, string][]>(
          [
            ['redirect_uris', [s.client.redirectUri]],
            ['client_name', 'Fuzzed Agent'],
            ['token_endpoint_auth_method', 'none'],
            ['grant_types', ['authorization_code', 'refresh_token']],
            ['response_types', ['code']],
          ].map(([name, value]) => [name as string, JSON.stringify(value)]),
        )
      : // Half of them with one field as the hostile requests send it: what lies behind a check that passed.
        fc
          .option(fc.constantFrom('', ...entries.map(([name]) => name)), { nil: undefined })
          .chain((off) =>
            fc.tuple(
              ...entries.map(([name, value]) =>
                (name === off ? fc.oneof(value, hostileValue(20_000)) : (VALID.get(value) ?? value)).map(
                  (text) => [name, text] as [string, string],
                ),
              ),
            ),
          );
  const own = [endpoint.cookie, `stdreg_csrf=${s.csrf}`].filter(Boolean).join('; ');
  const { clientId, clientSecret } = s.client;
  const basic: [string, string][] = [
    ['authorization', `Basic ${base64(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`)}`],
  ];
  const bearer = s.accessTokens.map((token): [string, string][] => [['authorization', `Bearer ${token}`]]);
  const authorization = fc.constantFrom<[string, string][]>(
    ...{ basic: [basic], bearer, none: [[]], any: [[], basic, ...bearer] }[endpoint.valid?.authorization ?? 'any'],
  );
  return fc
    .record({ method: fc.constantFrom(...endpoint.methods), path: endpoint.path, fields, authorization })
    .map(({ method, path, fields: pairs, authorization: credential }) => {
      const [first, second] = endpoint.equal ?? [];
      const equal = first
        ? pairs.map(([name, value]): [string, string] => [name, name === second ? (pairs.find(([n]) => n === first)?.[1] ?? value) : value])
        : pairs;
      const text = equal.map(([name, value]) => `${percentEncoded(name)}=${percentEncoded(value)}`).join('&');
      const inBody = method !== 'GET' && method !== 'DELETE';
      const body =
        endpoint.body === 'json'
          ? JSON.stringify(Object.fromEntries(equal.map(([name, value]) => [name, JSON.parse(value) as unknown])))
          : text;
      return {
        target: `${method} ${endpoint.pattern}`,
        method,
        path: !inBody && text ? `${path}?${text.slice(0, 12_000)}` : path,
        headers: [
          ...(own ? [['cookie', own] as [string, string]] : []),
          ...credential,
          ...(inBody
            ? [['content-type', endpoint.body === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'] as [string, string]]
            : []),
        ],
        ...(inBody ? { body } : {}),
      };
    });
}

/** Requests at one endpoint: a method (its own most often), the fields it reads (some, valid-ish or hostile, plus unknown ones), placed as a client would or not. */
function endpointRequest(endpoint: Endpoint, s: FormSurface): fc.Arbitrary<HostileRequest> {
  return fc.oneof({ weight: 3, arbitrary: hostileRequest(endpoint, s) }, { weight: 1, arbitrary: validStart(endpoint, s) });
}

function hostileRequest(endpoint: Endpoint, s: FormSurface): fc.Arbitrary<HostileRequest> {
  const names = Object.keys(endpoint.fields);
  const chosen = names.length
    ? fc
        .subarray(names)
        .chain((picked) =>
          fc.tuple(
            ...picked.map((name) =>
              fc
                .oneof({ weight: 5, arbitrary: endpoint.fields[name]! }, { weight: 2, arbitrary: hostileValue(1_100_000) })
                .map((value) => [name, value] as [string, string]),
            ),
          ),
        )
    : fc.constant([] as [string, string][]);
  const pairs = (endpoint.body === 'json' ? registration(s) : chosen).chain((list) =>
    fc
      .record({
        unknown: fc.oneof(
          { weight: 4, arbitrary: fc.constant<[string, string][]>([]) },
          { weight: 1, arbitrary: fc.array(fc.tuple(hostileValue(100), hostileValue(2_000)), { maxLength: 2 }) },
        ),
        equalize: fc.boolean(),
      })
      .map(({ unknown, equalize }) => {
        const all = [...list, ...unknown];
        const [first, second] = endpoint.equal ?? [];
        const value = all.find(([name]) => name === first)?.[1];
        return equalize && value !== undefined ? [...all.filter(([name]) => name !== second), [second!, value] as [string, string]] : all;
      }),
  );
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...endpoint.methods) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_METHODS) },
  );
  return fc
    .record({
      method,
      path: endpoint.path,
      pairs,
      inQuery: fc.integer({ min: 0, max: 9 }),
      cookies: cookieHeaders(s, endpoint.cookie),
      authorization: authorizationHeaders(s),
      extra: extraHeaders(),
    })
    .chain(({ method: verb, path, pairs: fields, inQuery, cookies, authorization, extra }) => {
      // A GET carries its fields in the query; a POST in its body, sometimes in the query instead (or both ways).
      const query = verb === 'POST' || verb === 'PUT' ? (inQuery === 0 ? fields : []) : fields;
      const bodyFields = verb === 'GET' || verb === 'HEAD' ? (inQuery === 0 ? fields : []) : inQuery === 0 ? [] : fields;
      const queryText = encodedPairs(query.map(([name, value]) => [name, value.slice(0, 6_000)] as [string, string])).map((list) =>
        list.join('&'),
      );
      const body =
        endpoint.body === 'none' && bodyFields.length === 0
          ? fc.constant({ contentType: [] as string[] })
          : formBody(bodyFields, endpoint.body);
      return fc.record({ queryText, body }).map(({ queryText: text, body: { contentType, ...sent } }) => ({
        target: `${verb} ${endpoint.pattern}`,
        method: verb,
        path: text ? `${path}?${text}` : path,
        headers: [...cookies, ...authorization, ...contentType.map((type) => ['content-type', type] as [string, string]), ...extra],
        ...sent,
      }));
    });
}

/** Requests at every endpoint of the surface, the pages and the token endpoint most often. */
export function formRequest(s: FormSurface): fc.Arbitrary<HostileRequest> {
  const heavier = new Set([
    `${s.issuerPath}/auth`,
    `${s.issuerPath}/token`,
    '/v1/signin/{uid}/login',
    '/v1/signin/{uid}/consent',
    '/v1/password-setup/{token}',
  ]);
  return fc.oneof(
    ...endpoints(s).map((endpoint) => ({ weight: heavier.has(endpoint.pattern) ? 3 : 1, arbitrary: endpointRequest(endpoint, s) })),
  );
}

/** The last value of a field of a form body (as the pages read it), when the body is a form. */
export function formField(hostile: HostileRequest, name: string): string | undefined {
  if (hostile.body === undefined || hostile.bodyEncoding) return undefined;
  try {
    return new URLSearchParams(hostile.body).getAll(name).at(-1);
  } catch {
    return undefined;
  }
}
