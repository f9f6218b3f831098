// Fuzzes every endpoint of the three built services, generated from their own OpenAPI documents and MCP
// lists, and identity's browser and OAuth surface, which no such document lists (see docs/reliability.md,
// "Hostile input"). HOSTILE_SEED replays a run; HOSTILE_RUNS sets its length.
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  FormBrowser,
  sampleScenario,
  signInWithForms,
  STANDARDS_API_AUDIENCE,
  startSignedInPartner,
  type SignedInPartner,
} from '@stdreg/server-kit/testing';
import {
  formAnswerProblems,
  formWroteNothing,
  mcpAnswerProblems,
  mcpWroteNothing,
  restAnswerProblems,
  type FormSurfaceFacts,
} from '../src/hostile/answer-checks';
import { formRequest, type FormSurface } from '../src/hostile/form-requests';
import { fuzz, fuzzSettings, type FuzzOutcome } from '../src/hostile/fuzz-run';
import { operationRequest, type Credentials } from '../src/hostile/hostile-request';
import { fetchMcpSurface, mcpRequest } from '../src/hostile/mcp-requests';
import { fetchOperations, type Operation } from '../src/hostile/openapi-operations';
import { RowCounts } from '../src/hostile/row-counts';
import type { KnownValues } from '../src/hostile/schema-values';
import { startPlatform, type Platform } from '../src/platform';

// The CI budget: requests per surface. A long run is `npm run test:hostile:long`.
const settings = fuzzSettings(300);
// Limits high enough that the fuzzer reaches the code behind them (a 429 is a fine answer, but a dull one).
const UNLIMITED = Object.fromEntries(
  [
    'RATE_LIMIT_APP_PER_MINUTE',
    'RATE_LIMIT_APP_BURST',
    'RATE_LIMIT_APP_WRITES_PER_MINUTE',
    'RATE_LIMIT_PLATFORM_PER_MINUTE',
    'RATE_LIMIT_PLATFORM_BURST',
    'RATE_LIMIT_WAITLIST_PER_HOUR',
    'MCP_TOOL_CALLS_PER_MINUTE_PER_KEY',
    'MCP_TOOL_CALLS_PER_MINUTE_PER_IP',
    'SIGNIN_ATTEMPTS_PER_IP_PER_MINUTE',
    'OIDC_REGISTRATIONS_PER_IP_PER_HOUR',
    'OIDC_FLOWS_PER_IP_PER_MINUTE',
  ].map((name) => [name, '100000']),
);
// Five wrong passwords lock the fuzzed person out for a second: the fuzzer sees the lockout and gets past it.
const LOCKOUT = { SIGNIN_LOCKOUT_SECONDS: '1' };
// The credential standards-api and the gateway present to identity, so its decision and token-exchange
// endpoints are fuzzed past their guard too.
const SERVICE_TOKEN = randomBytes(32).toString('base64url');
const FUZZ_TIMEOUT_MS = Math.max(120_000, settings.runs * 2_000);

let platform: Platform;
let partner: SignedInPartner;
let rows: RowCounts;
let credentials: Credentials;
let known: KnownValues;
const outcomes: Record<string, FuzzOutcome> = {};

beforeAll(async () => {
  platform = await startPlatform({ ...UNLIMITED, ...LOCKOUT, IDENTITY_SERVICE_TOKEN: SERVICE_TOKEN });
  partner = await startSignedInPartner({ url: platform.identityUrl, platformKey: platform.platformKey });
  const person = await partner.userWithRoles(['project-owner']);
  const personToken = await partner.signIn(person.email);
  const created = await fetch(`${platform.standardsApiUrl}/api/v2/split-projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${personToken}`, 'x-organization-id': partner.organizationId, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Fuzzed',
      currency: 'EUR',
      templateVersion: '2.0',
      scenario: { name: 'Baseline', content: sampleScenario() },
    }),
  });
  if (created.status !== 201) throw new Error(`creating the fixture project answered ${created.status}: ${await created.text()}`);
  const { project, scenario } = (await created.json()) as { project: { id: string }; scenario: { id: string } };
  credentials = {
    none: undefined,
    'app key': `Bearer ${partner.appKey}`,
    'platform key': `Bearer ${platform.platformKey}`,
    'service token': `Bearer ${SERVICE_TOKEN}`,
    'person token': `Bearer ${personToken}`,
    'made-up key': 'Bearer sk_live_0000000000000000000000000000000000000000',
    'made-up JWT': 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    basic: 'Basic YWRtaW46YWRtaW4=',
    'bare scheme': 'Bearer',
  };
  // Real values the fuzzer may put where a schema field of that name goes. Not the ids of the keys, the
  // app or the person whose credentials it uses: a valid DELETE of those would end the run's credentials.
  known = {
    id: [project.id, scenario.id, partner.organizationId],
    organizationId: [partner.organizationId],
    'X-Organization-Id': [partner.organizationId],
    scenarioId: [scenario.id],
    fromScenarioId: [scenario.id],
    content: [sampleScenario()],
    currency: ['EUR'],
    templateVersion: ['2.0'],
    version: ['2.0', '1'],
    sectionId: ['AGT-1'],
    taskCode: ['TSK-001'],
    role: ['agent-supervisor', 'project-owner'],
    policyId: ['acceptable-use'],
    lang: ['en', 'zh-Hans'],
  };
  rows = await RowCounts.open(await platform.databaseConnections());
}, 300_000);

afterAll(async () => {
  for (const [surface, outcome] of Object.entries(outcomes)) {
    console.log(
      `hostile fuzzing, ${surface}: ${outcome.sent} requests (seed ${settings.seed}), answers ${JSON.stringify(outcome.statuses)}`,
    );
  }
  await rows?.close();
  await partner?.close();
  await platform?.stop();
}, 60_000);

async function expectAllReady(): Promise<void> {
  const origins = [platform.identityUrl, platform.standardsApiUrl, new URL(platform.mcpUrl).origin];
  const statuses = await Promise.all(origins.map((origin) => fetch(`${origin}/readyz`).then((r) => r.status)));
  expect(statuses).toEqual([200, 200, 200]);
}

function restTarget(origin: string, operations: Operation[], valid: string[]) {
  return {
    origin,
    // Operations that take a body have more to get wrong: they are fuzzed twice as often.
    requests: fc.oneof(
      ...operations.map((operation) => ({
        weight: operation.body ? 2 : 1,
        arbitrary: operationRequest(operation, known, credentials, valid),
      })),
    ),
    problemsOf: restAnswerProblems,
    wroteNothing: (answer: { status: number; failure?: string }) => Boolean(answer.failure) || answer.status >= 400,
  };
}

// Each service with the credentials it accepts (the fuzzer sends those most often, to get past the guard).
const REST_SERVICES: [string, () => string, string, string[]][] = [
  ['standards-api', () => platform.standardsApiUrl, '/api/v2/openapi.json', ['app key', 'person token']],
  ['identity', () => platform.identityUrl, '/v1/openapi.json', ['app key', 'platform key', 'service token']],
];

describe('every endpoint, fuzzed with hostile input', () => {
  it.each(REST_SERVICES)(
    '%s answers every request to its OpenAPI operations in time with a 2xx or a 4xx problem details, leaks nothing and writes nothing when it refuses',
    async (service, origin, documentPath, valid) => {
      const operations = await fetchOperations(`${origin()}${documentPath}`);
      expect(operations.length).toBeGreaterThanOrEqual(30);
      outcomes[service] = await fuzz(restTarget(origin(), operations, valid), rows, settings);
      await expectAllReady();
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'the gateway answers every MCP request in time with a JSON-RPC answer or a 4xx in the MCP error shape, leaks nothing and writes nothing when it refuses',
    async () => {
      const surface = await fetchMcpSurface(platform.mcpUrl, `Bearer ${partner.appKey}`);
      expect(surface.tools.length).toBeGreaterThanOrEqual(10);
      const mcp = new URL(platform.mcpUrl);
      outcomes['mcp-gateway'] = await fuzz(
        {
          origin: mcp.origin,
          requests: mcpRequest(mcp.pathname, surface, known, credentials, ['app key']),
          problemsOf: mcpAnswerProblems,
          wroteNothing: mcpWroteNothing,
        },
        rows,
        settings,
      );
      await expectAllReady();
    },
    FUZZ_TIMEOUT_MS,
  );
});

/** The Cookie header a browser sends to any of `urls`, each cookie once, without its CSRF cookie (the fuzzer adds its own). */
function browserCookies(browser: FormBrowser, urls: string[]): string {
  const pairs = new Map<string, string>();
  for (const url of urls) {
    for (const pair of browser.cookieHeader(url).split('; ').filter(Boolean)) pairs.set(pair.slice(0, pair.indexOf('=')), pair);
  }
  pairs.delete('stdreg_csrf');
  return [...pairs.values()].join('; ');
}

/**
 * The valid starts of the browser and OAuth surface: a partner app's client with its redirect URI, an access
 * token it was issued, a person at the login prompt of one browser and at the consent prompt of another
 * (signed in), and two unspent password-setup links.
 */
async function startFormSurface(): Promise<{ surface: FormSurface; facts: FormSurfaceFacts }> {
  const identity = platform.identityUrl;
  const issuer = `${identity}/oidc`;
  // A partner of its own: the surfaces fuzzed before may have spent the first partner's app allowance (maxApps) or
  // changed its people, however long they ran.
  const formPartner = await startSignedInPartner({ url: identity, platformKey: platform.platformKey });
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${identity}${path}`, {
      method,
      headers: { authorization: `Bearer ${formPartner.appKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  // Nothing listens there: the fuzzer never follows a redirect.
  const redirectUri = 'http://127.0.0.1:9/callback';
  const registered = await call('POST', '/v1/apps', { name: 'Fuzzed Portal', type: 'Traditional', redirectUris: [redirectUri] });
  const app = registered['app'] as { clientId: string; registryId: string };
  const client = { clientId: app.clientId, clientSecret: registered['clientSecret'] as string, redirectUri };
  const person = { email: (await formPartner.userWithRoles([])).email, password: formPartner.password };
  const accessToken = await signInWithForms({ identityUrl: identity, ...client }, person.email, person.password);

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorizationUrl = (scope: string) =>
    `${issuer}/auth?${new URLSearchParams({
      client_id: client.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope,
      resource: STANDARDS_API_AUDIENCE,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'fuzz',
    }).toString()}`;
  const atLogin = new FormBrowser();
  const loginPage = await atLogin.follow(authorizationUrl('openid api'), redirectUri);
  const loginUid = new URL(loginPage.url).pathname.split('/').at(-1)!;
  // Signed in, and asked for more than the person granted before: the consent prompt.
  const atConsent = new FormBrowser();
  const secondLogin = await atConsent.follow(authorizationUrl('openid profile email offline_access api'), redirectUri);
  const afterLogin = await atConsent.submit(secondLogin, person, '/login');
  const consentPage = await atConsent.follow(new URL(afterLogin.location!, afterLogin.url).toString(), redirectUri);
  if (!consentPage.text.includes('name="decision"'))
    throw new Error(`no consent page: ${consentPage.status} ${consentPage.text.slice(0, 300)}`);
  const consentUid = new URL(consentPage.url).pathname.split('/').at(-1)!;
  // Logged in, not yet resumed.
  const atResume = new FormBrowser();
  const thirdLogin = await atResume.follow(authorizationUrl('openid api'), redirectUri);
  const loggedIn = await atResume.submit(thirdLogin, person, '/login');
  const resumeUrl = new URL(loggedIn.location!, loggedIn.url).toString();

  const setupTokens: string[] = [];
  for (const n of [1, 2]) {
    const user = await call('POST', '/v1/users', {
      registryId: app.registryId,
      externalId: `fuzz-${n}-${randomBytes(4).toString('hex')}`,
      email: `setup-${n}-${randomBytes(4).toString('hex')}@example.com`,
      emailVerified: true,
      displayName: 'Set Up',
      locale: 'en',
    });
    const setup = await call('POST', `/v1/users/${user['id'] as string}/password-setup`);
    setupTokens.push(new URL(setup['setupUrl'] as string).pathname.split('/').at(-1)!);
  }
  const surface: FormSurface = {
    issuerPath: new URL(issuer).pathname,
    client,
    resource: STANDARDS_API_AUDIENCE,
    loginInteraction: { uid: loginUid, cookie: browserCookies(atLogin, [loginPage.url]) },
    consentInteraction: {
      uid: consentUid,
      cookie: browserCookies(atConsent, [consentPage.url, `${issuer}/auth/${consentUid}`, `${issuer}/session/end`]),
    },
    resumeInteraction: { uid: new URL(resumeUrl).pathname.split('/').at(-1)!, cookie: browserCookies(atResume, [resumeUrl]) },
    person,
    setupTokens,
    accessTokens: [accessToken],
    csrf: randomBytes(32).toString('base64url'),
    pkce: { verifier, challenge },
  };
  const facts: FormSurfaceFacts = {
    origin: identity,
    issuerPath: surface.issuerPath,
    redirectUris: [redirectUri],
    secrets: [client.clientSecret, partner.appKey, formPartner.appKey, platform.platformKey, SERVICE_TOKEN, accessToken, ...setupTokens],
    neverShown: [person.password],
    accessTokens: [accessToken],
  };
  return { surface, facts };
}

describe("identity's browser and OAuth surface, fuzzed with bytes no form would send", () => {
  it(
    'the OpenID Provider, the sign-in pages and the password-setup pages answer in time, never 5xx, redirect only to the site or a registered redirect URI, leak nothing and write nothing when they refuse',
    async () => {
      const { surface, facts } = await startFormSurface();
      outcomes['identity browser and OAuth'] = await fuzz(
        {
          origin: platform.identityUrl,
          requests: formRequest(surface),
          problemsOf: formAnswerProblems(facts),
          wroteNothing: formWroteNothing(facts),
        },
        rows,
        settings,
      );
      await expectAllReady();
    },
    FUZZ_TIMEOUT_MS,
  );
});
