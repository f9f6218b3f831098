import Provider, { errors, type Configuration, type ErrorOut, type KoaContextWithOIDC } from 'oidc-provider';
import type { IdentityConfig } from '../config/identity.config';
import { chooseLocale } from '../pages/signin-locale';
import { escapeHtml, messagePage } from '../pages/signin-pages';
import { textsFor } from '../pages/signin-texts';
import { postgresAdapter, type ClientSource } from './oidc-adapter';
import type { AccessTokenVerifier } from './access-token-verifier';
import type { OidcAccounts } from './oidc-accounts';
import type { OidcSecrets } from '../secrets/oidc-secrets';
import type { OidcStoreRepository } from './oidc-store.repository';

/** The scope a client asks for to get an access token for the standards API (with `resource=<OIDC_API_AUDIENCE>`). */
export const API_SCOPE = 'api';
/** Where identity serves the login and consent pages (`SigninController` under the `/v1` prefix). */
export const SIGNIN_PATH = 'v1/signin';

export interface ProviderDependencies {
  config: IdentityConfig;
  secrets: OidcSecrets;
  store: OidcStoreRepository;
  clients: ClientSource;
  accounts: OidcAccounts;
  /** Revokes the JWT access tokens the provider will not (see revokeJwtAccessTokens). */
  accessTokens: Pick<AccessTokenVerifier, 'revoke'>;
}

/** The ways a client authenticates: its secret, in the Authorization header or in the form body. No client has keys of its own. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;

const DAY = 24 * 60 * 60;

/** The OpenID Provider: authorization code + PKCE (S256, every client), refresh tokens that rotate, JWT access tokens for the standards API. */
export function createOidcProvider({ config, secrets, store, clients, accounts, accessTokens }: ProviderDependencies): Provider {
  const configuration: Configuration = {
    adapter: postgresAdapter(store, clients),
    findAccount: (_ctx, sub) => accounts.find(sub),
    clients: [],
    responseTypes: ['code'],
    pkce: { required: () => true },
    // `api` is the standards API's scope (granted with its resource indicator); listed so discovery names it.
    scopes: ['openid', 'offline_access', 'profile', 'email', API_SCOPE],
    clientAuthMethods: [...CLIENT_AUTH_METHODS],
    claims: {
      acr: null,
      auth_time: null,
      sid: null,
      iss: null,
      // amr under openid: standalone claims reach the ID token only when a client asks for them.
      openid: ['sub', 'uid', 'roles', 'amr'],
      profile: ['name', 'locale'],
      email: ['email', 'email_verified'],
    },
    // uid and roles belong in the ID token of the code flow too.
    conformIdTokenClaims: false,
    jwks: { keys: secrets.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: secrets.cookieKeys },
    features: {
      devInteractions: { enabled: false },
      // A client revokes only its own tokens.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource: logoutSource(new URL(config.oidcIssuer).pathname), postLogoutSuccessSource },
      resourceIndicators: {
        enabled: true,
        // Without `resource` at the token endpoint the access token is for userinfo.
        useGrantedResource: () => false,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== config.OIDC_API_AUDIENCE) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE,
            audience: config.OIDC_API_AUDIENCE,
            accessTokenTTL: config.OIDC_ACCESS_TOKEN_TTL_SECONDS,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    interactions: {
      url: (_ctx, interaction) => `${config.publicOrigin}/${SIGNIN_PATH}/${interaction.uid}`,
    },
    ttl: {
      AccessToken: config.OIDC_ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      Session: 14 * DAY,
      Grant: 30 * DAY,
      RefreshToken: 30 * DAY,
    },
    rotateRefreshToken: true,
    issueRefreshToken: (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined;
      const source = ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RefreshToken;
      const claims = await accounts.tokenClaims(token.accountId);
      if (!claims) return undefined;
      return {
        ...claims,
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
  provider.use(revokeJwtAccessTokens(accessTokens));
  return provider;
}

/**
 * oidc-provider answers `unsupported_token_type` for a JWT access token at the revocation endpoint,
 * after it has authenticated the client. That answer is replaced: a token of this client is recorded
 * as revoked (200), one that does not verify needs nothing (200, RFC 7009 2.2), one of another
 * client is refused (`unauthorized_client`).
 */
function revokeJwtAccessTokens(accessTokens: Pick<AccessTokenVerifier, 'revoke'>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    const refused = ctx.body as { error?: unknown } | undefined;
    if (ctx.path !== '/token/revocation' || ctx.status !== 400 || refused?.error !== 'unsupported_token_type') return;
    const clientId = ctx.oidc?.client?.clientId;
    const token = ctx.oidc?.params?.['token'];
    if (typeof clientId !== 'string' || typeof token !== 'string') return;
    const outcome = await accessTokens.revoke(token, clientId);
    if (outcome === 'other_client') {
      ctx.body = { error: 'unauthorized_client', error_description: 'this token was not issued to this client' };
      return;
    }
    ctx.status = 200;
    ctx.body = '';
  };
}

function localeOf(ctx: KoaContextWithOIDC) {
  const uiLocales = ctx.oidc?.params?.['ui_locales'];
  return chooseLocale(typeof uiLocales === 'string' ? uiLocales : undefined, ctx.get('accept-language'));
}

async function renderError(ctx: KoaContextWithOIDC, out: ErrorOut, _error: Error): Promise<void> {
  const locale = localeOf(ctx);
  const t = textsFor(locale);
  const detail = `<p><code>${escapeHtml(out.error)}</code>${out.error_description ? `: ${escapeHtml(out.error_description)}` : ''}</p>`;
  ctx.type = 'html';
  ctx.body = messagePage(locale, (texts) => texts.errorTitle, t.errorBack, 'alert', detail);
}

/** The sign-out question, naming the app that asks where it is known, with a switch to the other language. */
function logoutSource(issuerPath: string) {
  return async (ctx: KoaContextWithOIDC, form: string): Promise<void> => {
    const locale = localeOf(ctx);
    const t = textsFor(locale);
    const appName = ctx.oidc?.client?.clientName;
    // `form` is the provider's own form (with its xsrf token); the buttons submit it.
    const buttons = `${form}
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>${t.logoutYes}</button>
<button type="submit" form="op.logoutForm" class="secondary">${t.logoutNo}</button>
</div>`;
    const here = new URL(ctx.originalUrl, 'http://here.invalid');
    here.searchParams.set('ui_locales', locale === 'en' ? 'zh-Hans' : 'en');
    const otherLanguageHref = `${issuerPath.replace(/\/$/, '')}${here.pathname}${here.search}`;
    ctx.type = 'html';
    ctx.body = messagePage(
      locale,
      (texts) => texts.logoutTitle,
      appName ? t.logoutQuestionFrom(appName) : t.logoutQuestion,
      'notice',
      buttons,
      otherLanguageHref,
    );
  };
}

async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  const locale = localeOf(ctx);
  ctx.type = 'html';
  ctx.body = messagePage(locale, (texts) => texts.logoutTitle, textsFor(locale).loggedOut, 'notice');
}
