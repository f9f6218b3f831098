import Provider, { errors, interactionPolicy, type Configuration, type ErrorOut, type KoaContextWithOIDC } from 'oidc-provider';
import { AGENT_SCOPES, canonicalResourceUrl } from '@stdreg/contracts';
import { ConfigValidationError, problemAnswer, routeNotFound } from '@stdreg/server-kit';
import type { IdentityConfig } from '../../platform/config/identity.config';
import {
  agentClientMetadata,
  agentRedirectKind,
  AGENT_CLIENT_KIND_PROPERTY,
  isAgentClient,
  metadataDocumentUrlProblem,
} from './agent-clients';
import { chooseLocale } from '../pages/signin-locale';
import { escapeHtml, messagePage, PAGE_HEADERS } from '../pages/signin-pages';
import { textsFor } from '../pages/signin-texts';
import { postgresAdapter, type ClientSource } from './oidc-adapter';
import type { SubjectChanges } from '../../access/subject-changes/subject-changes';
import { API_SCOPE } from '../../access/callers/access-token-verifier';
import { fetchFromLocalAddresses, fetchFromPublicAddresses } from '../../platform/outbound/outbound-fetch';
import type { AccessTokenRevocation } from './access-token-revocation';
import type { OidcAccounts } from './oidc-accounts';
import type { OidcSecrets } from '../../platform/secrets/oidc-secrets';
import type { OidcStoreRepository } from './oidc-store.repository';
import { auditDocumentClients, auditProviderAnswers, type ProviderAudit } from './provider-audit';
import type { GrantRevocations } from './grant-revocations';

/** Where identity serves the login and consent pages (`SigninController` under the `/v1` prefix). */
export const SIGNIN_PATH = 'v1/signin';

export interface ProviderDependencies {
  config: IdentityConfig;
  secrets: OidcSecrets;
  store: OidcStoreRepository;
  clients: ClientSource;
  accounts: OidcAccounts;
  /** Revokes the JWT access tokens the provider will not (see revokeJwtAccessTokens). */
  accessTokens: Pick<AccessTokenRevocation, 'revoke'>;
  subjectChanges: SubjectChanges;
  /** Records the tokens the provider issues and revokes and the clients it registers (provider-audit). */
  audit: ProviderAudit;
  /** Ends grants with their audit entries. */
  grants: Pick<GrantRevocations, 'end'>;
}

/**
 * The ways a client authenticates: a partner app by its secret, in the Authorization header or in the
 * form body; an agent client not at all (a public client, held to PKCE). No client has keys of its own.
 */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

const DAY = 24 * 60 * 60;

/**
 * The longest a sign-in at identity lasts, however often it is used (ASVS 4.0.3 V3.3.2): the session itself slides
 * with use (`ttl.Session`), its sign-in does not, and an older one asks for the password again.
 */
export const SESSION_MAX_AGE_SECONDS = 14 * DAY;

/** The OpenID Provider: authorization code + PKCE (S256, every client), refresh tokens that rotate, JWT access tokens for the standards API. */
export function createOidcProvider({
  config,
  secrets,
  store,
  clients,
  accounts,
  accessTokens,
  subjectChanges,
  audit,
  grants,
}: ProviderDependencies): Provider {
  const configuration: Configuration = {
    adapter: postgresAdapter(store, clients, subjectChanges, grants),
    findAccount: (_ctx, sub) => accounts.find(sub),
    clients: [],
    responseTypes: ['code'],
    pkce: { required: () => true },
    // `api` is the standards API's scope, the agent scopes the gateway's (each granted with its resource indicator); listed so discovery names them.
    scopes: ['openid', 'offline_access', 'profile', 'email', API_SCOPE, ...AGENT_SCOPES],
    extraClientMetadata: { properties: [AGENT_CLIENT_KIND_PROPERTY], validator: agentClientMetadata },
    clientAuthMethods: [...CLIENT_AUTH_METHODS],
    claims: {
      acr: null,
      auth_time: null,
      sid: null,
      iss: null,
      // amr under openid: standalone claims reach the ID token only when a client asks for them.
      openid: ['sub', 'uid', 'roles', 'amr'],
      profile: ['name'],
      email: ['email', 'email_verified'],
    },
    // uid and roles belong in the ID token of the code flow too.
    conformIdTokenClaims: false,
    jwks: { keys: secrets.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: secrets.cookieKeys, names: { session: sessionCookieName(config) } },
    features: {
      devInteractions: { enabled: false },
      // A client revokes only its own tokens (provider-audit records only those).
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource: logoutSource(new URL(config.oidcIssuer).pathname), postLogoutSuccessSource },
      // Partner apps get tokens for the standards API, agent clients only for the tool gateway.
      resourceIndicators: {
        enabled: true,
        // An agent asks for the gateway even when it names no resource; a partner app names the API.
        defaultResource: (ctx, client, oneOf) => (isAgentClient(client) ? config.mcpResource : (oneOf ?? undefined)),
        // Without `resource` at the token endpoint a partner app's access token is for userinfo; an agent's is for the gateway.
        useGrantedResource: (ctx) => isAgentClient(ctx.oidc.client),
        getResourceServerInfo: (_ctx, resourceIndicator, client) => {
          const agent = isAgentClient(client);
          if (agent && sameResource(resourceIndicator, config.mcpResource)) {
            return jwtResourceServer(config.mcpResource, AGENT_SCOPES.join(' '), config);
          }
          if (!agent && resourceIndicator === config.OIDC_API_AUDIENCE)
            return jwtResourceServer(config.OIDC_API_AUDIENCE, API_SCOPE, config);
          throw new errors.InvalidTarget(
            agent ? 'agent clients get tokens for the tool gateway only' : 'this client gets tokens for the standards API only',
          );
        },
      },
      // Agents register themselves: by a Client ID Metadata Document (an https client id), or by RFC 7591.
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        cacheDuration: { min: 30, max: 3600 },
        allowFetch: (_ctx, clientId) => {
          const problem = metadataDocumentUrlProblem(clientId);
          if (problem !== null) throw new errors.InvalidClient(problem);
          return true;
        },
        // Not a filter: every document the provider accepted is allowed; the first acceptance of a client id is recorded.
        allowClient: auditDocumentClients(audit),
      },
      registration: registrationPolicy(config),
    },
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024, jwks_uri: 64 * 1024, sector_identifier_uri: 64 * 1024 },
    fetch: config.OIDC_CIMD_ALLOW_PRIVATE_ADDRESSES === 'true' ? fetchFromLocalAddresses : fetchFromPublicAddresses,
    interactions: {
      policy: signInPolicy(),
      url: (_ctx, interaction) => `${config.publicOrigin}/${SIGNIN_PATH}/${interaction.uid}`,
    },
    ttl: {
      AccessToken: config.OIDC_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: SESSION_MAX_AGE_SECONDS,
      Grant: 30 * DAY,
      RefreshToken: 30 * DAY,
    },
    rotateRefreshToken: true,
    // Agent hosts keep a session without asking for offline_access (MCP clients do not); partner apps ask for it.
    issueRefreshToken: (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && (isAgentClient(client) || code.scopes.has('offline_access')),
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const source = ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RefreshToken;
      const claims = await accounts.tokenClaims(token.accountId);
      if (!claims) return undefined;
      return {
        ...claims,
        ...(isAgentClient(ctx.oidc.client) ? { client_kind: 'agent' } : {}),
        ...(source?.authTime ? { auth_time: source.authTime } : {}),
        ...(source?.amr ? { amr: source.amr } : {}),
        ...(token.grantId ? { gid: token.grantId } : {}),
      };
    },
    renderError,
  };
  const provider = new Provider(config.oidcIssuer, configuration);
  // Behind TRUSTED_PROXY_HOPS proxies, endpoint URLs follow X-Forwarded-Proto/Host.
  provider.proxy = config.TRUSTED_PROXY_HOPS > 0;
  provider.use(auditProviderAnswers(audit));
  provider.use(revokeJwtAccessTokens(accessTokens));
  provider.use(noSecretForPublicClients);
  provider.use(neverFramed);
  provider.use(signedOutInTheSameLanguage);
  provider.use(agentErrorsStayHere(provider));
  provider.use(unknownRoutesAnswerProblems);
  return provider;
}

/**
 * The session cookie's name (ASVS 4.0.3 V3.4.4). Behind an https issuer it is `__Host-`: a browser keeps it only when it
 * is Secure, for the whole host and no other (Path=/, no Domain), so a sibling host cannot plant or read it, and a
 * deployment that would send it without Secure (a proxy's https not trusted) signs no one in instead of leaking it.
 */
function sessionCookieName(config: IdentityConfig): string {
  return config.oidcIssuer.startsWith('https:') ? '__Host-session' : '_session';
}

/** oidc-provider's prompts, with one more reason to ask for the password: a sign-in older than SESSION_MAX_AGE_SECONDS. */
function signInPolicy(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(
    new interactionPolicy.Check('session_too_old', 'End-User authentication is too old', 'login_required', (ctx) => {
      const { session, result } = ctx.oidc;
      // A sign-in that has just happened in this interaction is as new as it gets (as the provider's own max_age check).
      const tooOld = session?.accountId !== undefined && session.past(SESSION_MAX_AGE_SECONDS) && !result?.['login'];
      return tooOld ? interactionPolicy.Check.REQUEST_PROMPT : interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }),
  );
  return policy;
}

/** The longest resource indicator read: any longer one names none of our resources (the gateway's URL is far shorter). */
const MAX_RESOURCE_INDICATOR_LENGTH = 2048;

function sameResource(indicator: string, resource: string): boolean {
  if (indicator.length > MAX_RESOURCE_INDICATOR_LENGTH) return false;
  try {
    return canonicalResourceUrl(indicator) === resource;
  } catch {
    return false;
  }
}

function jwtResourceServer(audience: string, scope: string, config: IdentityConfig) {
  return {
    scope,
    audience,
    accessTokenTTL: config.OIDC_ACCESS_TOKEN_TTL_SECONDS,
    accessTokenFormat: 'jwt' as const,
    jwt: { sign: { alg: 'RS256' as const } },
  };
}

/** RFC 7591 as the operator set it: off, open to anyone, or with the configured initial access token. */
function registrationPolicy(config: IdentityConfig): NonNullable<Configuration['features']>['registration'] {
  switch (config.OIDC_REGISTRATION) {
    case 'off':
      return { enabled: false };
    case 'open':
      return { enabled: true };
    case 'token':
      if (!config.OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN) {
        throw new ConfigValidationError(['OIDC_REGISTRATION=token needs OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN']);
      }
      return { enabled: true, initialAccessToken: config.OIDC_REGISTRATION_INITIAL_ACCESS_TOKEN };
  }
}

/**
 * The provider makes a secret for a registration that asked for secret authentication before the agent
 * rules make the client public; a public client is told no secret (and none is kept: see the adapter).
 */
async function noSecretForPublicClients(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  const registered = ctx.body as Record<string, unknown> | undefined;
  if (ctx.path !== '/reg' || ctx.status !== 201 || registered?.['token_endpoint_auth_method'] !== 'none') return;
  delete registered['client_secret'];
  delete registered['client_secret_expires_at'];
}

/**
 * oidc-provider answers `unsupported_token_type` for a JWT access token at the revocation endpoint,
 * after it has authenticated the client. That answer is replaced: a token of this client is recorded
 * as revoked (200), one that does not verify needs nothing (200, RFC 7009 2.2), one of another
 * client is refused (`unauthorized_client`).
 */
function revokeJwtAccessTokens(accessTokens: Pick<AccessTokenRevocation, 'revoke'>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    const refused = ctx.body as { error?: unknown } | undefined;
    if (ctx.path !== '/token/revocation' || ctx.status !== 400 || refused?.error !== 'unsupported_token_type') return;
    const client = ctx.oidc?.client;
    const token = ctx.oidc?.params?.['token'];
    if (typeof client?.clientId !== 'string' || typeof token !== 'string') return;
    const outcome = await accessTokens.revoke(token, client);
    if (outcome === 'other_client') {
      ctx.body = { error: 'unauthorized_client', error_description: 'this token was not issued to this client' };
      return;
    }
    ctx.status = 200;
    ctx.body = '';
  };
}

/** The page language: `ui_locales` of the request (the provider's parameter, else the query of a route that does not take it). */
function localeOf(ctx: KoaContextWithOIDC) {
  const uiLocales = ctx.oidc?.params?.['ui_locales'] ?? ctx.query['ui_locales'];
  return chooseLocale(typeof uiLocales === 'string' ? uiLocales : undefined, ctx.get('accept-language'));
}

async function renderError(ctx: KoaContextWithOIDC, out: ErrorOut, _error: Error): Promise<void> {
  sendErrorPage(ctx, out);
}

/** The error page; with `unvouched`, it names where the client wanted the answer and links there rather than redirecting. */
function sendErrorPage(
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string | undefined },
  unvouched?: { host: string; href: string | null },
): void {
  const locale = localeOf(ctx);
  const t = textsFor(locale);
  const detail = `<p><code>${escapeHtml(out.error)}</code>${out.error_description ? `: ${escapeHtml(out.error_description)}` : ''}</p>`;
  const link = unvouched?.href
    ? `\n<p><a href="${escapeHtml(unvouched.href)}">${escapeHtml(t.errorUnvouchedReturnLink(unvouched.host))}</a></p>`
    : '';
  sendProviderPage(
    ctx,
    messagePage(
      locale,
      (texts) => texts.errorTitle,
      unvouched ? t.errorUnvouchedReturn(unvouched.host) : t.errorBack,
      'alert',
      detail + link,
    ),
  );
}

type RefusedAuthorization = Error & { error?: string; error_description?: string; statusCode?: number };

/**
 * RFC 9700 §4.11.2 and §4.18: an authorization request refused before the person did anything is answered at the
 * client's redirect URI, which makes the provider a redirector to wherever a client registered. A partner app's URIs
 * are registered with a partner's key, and a loopback one stays on the person's computer; an agent's https URI is
 * its own word (open registration, a metadata document). Such an error is shown here, with a link the person may
 * follow. Errors after the person answered (a denial, a cancel) come back through the resume route and still redirect.
 */
function agentErrorsStayHere(provider: Provider) {
  const refused = new WeakMap<object, RefusedAuthorization>();
  const note = (ctx: KoaContextWithOIDC, error: RefusedAuthorization) => refused.set(ctx, error);
  provider.on('authorization.error', note);
  provider.on('server_error', note);
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    const error = refused.get(ctx);
    const client = ctx.oidc?.client;
    if (!error || ctx.oidc?.route !== 'authorization' || !client || !isAgentClient(client)) return;
    const redirectUri = ctx.oidc.params?.['redirect_uri'] ?? ctx.query['redirect_uri'];
    if (typeof redirectUri !== 'string' || agentRedirectKind(redirectUri) !== 'https' || !client.redirectUriAllowed(redirectUri)) return;
    const location = ctx.response.get('Location');
    ctx.remove('Location');
    ctx.status = error.statusCode ?? 400;
    sendErrorPage(
      ctx,
      { error: error.error ?? 'server_error', error_description: error.error_description },
      {
        host: new URL(redirectUri).host,
        href: location || null,
      },
    );
  };
}

/** The sign-out question, naming the app that asks where it is known, with a switch to the other language. */
function logoutSource(issuerPath: string) {
  return async (ctx: KoaContextWithOIDC, form: string): Promise<void> => {
    const locale = localeOf(ctx);
    const t = textsFor(locale);
    const appName = ctx.oidc?.client?.clientName;
    // `form` is the provider's own form (with its xsrf token); the buttons submit it, with the page's language (see signedOutInTheSameLanguage).
    const confirm = new URL(ctx.oidc.urlFor('end_session_confirm'));
    confirm.searchParams.set('ui_locales', locale);
    const action = escapeHtml(confirm.href);
    const buttons = `${form}
<div class="actions">
<button type="submit" form="op.logoutForm" formaction="${action}" name="logout" value="yes" autofocus>${t.logoutYes}</button>
<button type="submit" form="op.logoutForm" formaction="${action}" class="secondary">${t.logoutNo}</button>
</div>`;
    const here = new URL(ctx.originalUrl, 'http://here.invalid');
    here.searchParams.set('ui_locales', locale === 'en' ? 'zh-Hans' : 'en');
    const otherLanguageHref = `${issuerPath.replace(/\/$/, '')}${here.pathname}${here.search}`;
    sendProviderPage(
      ctx,
      messagePage(
        locale,
        (texts) => texts.logoutTitle,
        appName ? t.logoutQuestionFrom(appName) : t.logoutQuestion,
        'notice',
        buttons,
        otherLanguageHref,
      ),
    );
  };
}

async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  const locale = localeOf(ctx);
  sendProviderPage(
    ctx,
    messagePage(locale, (texts) => texts.logoutTitle, textsFor(locale).loggedOut, 'notice'),
  );
}

/**
 * The provider sends a confirmed sign-out on to its success page with the client id only: the language the question was
 * asked in (the confirm form's `ui_locales`) goes along, so a person who chose Chinese is not told in English.
 */
async function signedOutInTheSameLanguage(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.oidc?.route !== 'end_session_confirm' || ctx.status !== 303 || typeof ctx.query['ui_locales'] !== 'string') return;
  const success = ctx.oidc.urlFor('end_session_success');
  const location = new URL(ctx.response.get('Location'), success);
  if (location.origin + location.pathname !== success) return;
  location.searchParams.set('ui_locales', localeOf(ctx));
  ctx.set('Location', location.href);
}

/**
 * No answer of the provider is shown in a frame. Its pages that identity renders carry every page header (sendProviderPage);
 * the forms the provider posts itself (sign-out without a session, form_post) keep the inline script they submit with.
 */
async function neverFramed(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  ctx.set({ 'X-Frame-Options': PAGE_HEADERS['X-Frame-Options'], 'Content-Security-Policy': "frame-ancestors 'none'" });
  await next();
}

/**
 * A path under the provider's mount that none of its routes takes (`/oidc/x`) ends in Koa's bare text "Not Found":
 * answered as the rest of the service answers an unknown route, with problem details. Its routes' own errors (OAuth
 * JSON, error pages for people) set a body and are left as they are.
 */
async function unknownRoutesAnswerProblems(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.status !== 404 || ctx.body != null) return;
  // Express's own `originalUrl` keeps the mount path, which Koa's (the URL Express handed on) has lost.
  const { originalUrl } = ctx.req as typeof ctx.req & { originalUrl?: string };
  const problem = problemAnswer(routeNotFound(ctx.method, originalUrl ?? ctx.originalUrl));
  ctx.set(problem.headers);
  ctx.status = problem.status;
  ctx.type = 'application/problem+json';
  ctx.body = problem.body;
}

/** The provider's own pages (its errors, the sign-out question and answer) carry the sign-in pages' headers. */
function sendProviderPage(ctx: KoaContextWithOIDC, html: string): void {
  ctx.set(PAGE_HEADERS);
  ctx.type = 'html';
  ctx.body = html;
}
