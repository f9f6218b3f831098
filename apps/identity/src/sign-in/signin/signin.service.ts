import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorCode, type Locale } from '@stdreg/contracts';
import { DomainError, JsonLogger } from '@stdreg/server-kit';
import Provider, { errors, type InteractionResults } from 'oidc-provider';
import { IdentityConfig } from '../../platform/config/identity.config';
import { agentRedirectKind, isAgentClient } from '../oidc/agent-clients';
import { AuditService } from '../../platform/audit-trail/audit.service';
import { OIDC_PROVIDER } from '../oidc/oidc.module';
import { SIGNIN_PATH } from '../oidc/oidc-provider.factory';
import { PasswordsService } from '../passwords/passwords.service';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { UnifiedUsersService } from '../../people/unified-users/unified-users.service';
import { csrfToken, csrfValid } from '../pages/csrf';
import { chooseLocale } from '../pages/signin-locale';
import { consentPage, loginPage, messagePage, sendPage, type ConsentAgent } from '../pages/signin-pages';
import { textsFor } from '../pages/signin-texts';

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

type SigninAttemptLimit = { kind: 'allowed' } | { kind: 'throttled' | 'unavailable'; retryAfterSeconds: number };

/**
 * The provider's interactions as pages: the login form (email and password, lockout), the consent
 * form, and cancelling. Every answer is a page or the provider's redirect, never an error body.
 */
@Injectable()
export class SigninService {
  constructor(
    @Inject(OIDC_PROVIDER) private readonly provider: Provider,
    private readonly passwords: PasswordsService,
    private readonly limiter: RateLimiter,
    private readonly users: UnifiedUsersService,
    private readonly config: IdentityConfig,
    private readonly logger: JsonLogger,
    private readonly audit: AuditService,
  ) {}

  async show(req: Request, res: Response): Promise<void> {
    await this.withInteraction(req, res, async (details, locale) => {
      if (details.prompt.name === 'login') return this.renderLogin(req, res, details, locale, 200);
      return this.renderConsent(req, res, details, locale);
    });
  }

  async login(req: Request, res: Response): Promise<void> {
    await this.withInteraction(req, res, async (details, locale) => {
      const form = formOf(req);
      const t = textsFor(locale);
      if (details.prompt.name !== 'login') return this.renderConsent(req, res, details, locale);
      if (!csrfValid(req, form['csrf'])) return this.renderLogin(req, res, details, locale, 403, t.formExpired, form['email']);
      const email = form['email'] ?? '';
      const limit = await this.signinAttemptLimit(req, res);
      if (limit.kind === 'throttled') {
        res.setHeader('Retry-After', String(limit.retryAfterSeconds));
        return this.renderLogin(req, res, details, locale, 429, t.tooManyFromHere(Math.ceil(limit.retryAfterSeconds / 60)), email);
      }
      if (limit.kind === 'unavailable') {
        res.setHeader('Retry-After', String(limit.retryAfterSeconds));
        return this.renderLogin(req, res, details, locale, 503, t.signInUnavailable, email);
      }
      const clientId = details.params['client_id'];
      const outcome = await this.passwords.authenticate(
        email,
        form['password'] ?? '',
        typeof clientId === 'string' ? clientId : null,
        req.ip ?? 'unknown',
      );
      switch (outcome.kind) {
        case 'ok':
          return this.finish(req, res, { login: { accountId: outcome.uid, amr: ['pwd'], remember: true, ts: outcome.signedInAt } }, false);
        case 'unknown_user':
          return this.renderLogin(req, res, details, locale, 401, t.unknownUser, email);
        case 'ambiguous':
          return this.renderLogin(req, res, details, locale, 401, t.ambiguousUser, email);
        case 'no_password':
          return this.renderLogin(req, res, details, locale, 401, t.noPassword, email);
        case 'wrong_password':
          return this.renderLogin(
            req,
            res,
            details,
            locale,
            401,
            t.sentences(t.wrongPassword, t.attemptsLeft(outcome.attemptsLeft)),
            email,
          );
        case 'locked':
          res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
          return this.renderLogin(req, res, details, locale, 429, t.locked(Math.ceil(outcome.retryAfterSeconds / 60)), email);
        case 'locked_until_new_password':
          return this.renderLogin(req, res, details, locale, 403, t.lockedUntilNewPassword, email);
      }
    });
  }

  async consent(req: Request, res: Response): Promise<void> {
    await this.withInteraction(req, res, async (details, locale) => {
      const form = formOf(req);
      if (details.prompt.name !== 'consent') return this.renderLogin(req, res, details, locale, 200);
      if (!csrfValid(req, form['csrf'])) return this.renderConsent(req, res, details, locale, 403);
      if (form['decision'] !== 'allow') {
        await this.recordConsent(details, 'denied');
        return this.finish(req, res, { error: 'access_denied', error_description: 'The user denied access.' }, false);
      }
      const grantId = await this.grant(details);
      return this.finish(req, res, { consent: { grantId } }, true);
    });
  }

  async abort(req: Request, res: Response): Promise<void> {
    await this.withInteraction(req, res, async (details, locale) => {
      if (!csrfValid(req, formOf(req)['csrf'])) return this.renderLogin(req, res, details, locale, 403, textsFor(locale).formExpired);
      return this.finish(req, res, { error: 'access_denied', error_description: 'The user cancelled the sign-in.' }, false);
    });
  }

  /**
   * Whether this client IP may have a password checked now: not when it made too many checks, nor when the
   * limits cannot be read (the limiter's store is away), each with the seconds to wait.
   */
  private async signinAttemptLimit(req: Request, res: Response): Promise<SigninAttemptLimit> {
    try {
      await this.limiter.limitSigninAttempt(req.ip ?? 'unknown', res);
      return { kind: 'allowed' };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const retryAfterSeconds = Number(error.headers?.['Retry-After'] ?? 60);
      if (error.code === ErrorCode.RateLimited) return { kind: 'throttled', retryAfterSeconds };
      if (error.code === ErrorCode.ServiceUnavailable) return { kind: 'unavailable', retryAfterSeconds };
      throw error;
    }
  }

  /** The interaction of this browser (its cookie must match the uid in the path), or an error page. */
  private async withInteraction(
    req: Request,
    res: Response,
    handle: (details: InteractionDetails, locale: Locale) => Promise<void>,
  ): Promise<void> {
    let locale = chooseLocale(queryLang(req), req.headers['accept-language']);
    try {
      const details = await this.provider.interactionDetails(req, res);
      if (details.uid !== req.params['uid']) throw new errors.SessionNotFound('interaction mismatch');
      const uiLocales = details.params['ui_locales'];
      locale = chooseLocale(
        [queryLang(req), typeof uiLocales === 'string' ? uiLocales : undefined].filter(Boolean).join(' '),
        req.headers['accept-language'],
      );
      await handle(details, locale);
    } catch (error) {
      if (!(error instanceof errors.OIDCProviderError)) throw error;
      this.logger.event('info', 'sign-in interaction refused', { error: error.error, detail: error.error_description }, 'Signin');
      const t = textsFor(locale);
      sendPage(
        res,
        error.statusCode,
        messagePage(locale, (texts) => texts.errorTitle, t.errorBack, 'alert'),
      );
    }
  }

  private async renderLogin(
    req: Request,
    res: Response,
    details: InteractionDetails,
    locale: Locale,
    status: number,
    error?: string,
    email?: string,
  ): Promise<void> {
    const base = this.interactionPath(details.uid);
    sendPage(
      res,
      status,
      loginPage({
        locale,
        action: `${base}/login${langQuery(req)}`,
        abortAction: `${base}/abort${langQuery(req)}`,
        csrf: csrfToken(req, res, this.secure),
        appName: await this.appName(details),
        ...(email !== undefined ? { email } : {}),
        ...(error ? { error } : {}),
        otherLanguageHref: `${base}?lang=${locale === 'en' ? 'zh-Hans' : 'en'}`,
      }),
    );
  }

  private async renderConsent(req: Request, res: Response, details: InteractionDetails, locale: Locale, status = 200): Promise<void> {
    const missing = details.prompt.details;
    const scopes = [...((missing['missingOIDCScope'] as string[] | undefined) ?? [])];
    const resourceScopes = (missing['missingResourceScopes'] as Record<string, string[]> | undefined) ?? {};
    for (const list of Object.values(resourceScopes)) scopes.push(...list);
    const accountId = details.session?.accountId;
    const user = accountId ? await this.users.findResolved(accountId) : null;
    const base = this.interactionPath(details.uid);
    const client = await this.client(details);
    const agent = client ? agentOf(client, details.params['redirect_uri']) : null;
    sendPage(
      res,
      status,
      consentPage({
        locale,
        action: `${base}/consent${langQuery(req)}`,
        csrf: csrfToken(req, res, this.secure),
        appName: await this.appName(details),
        ...(agent ? { agent } : {}),
        scopes: [...new Set(scopes)],
        email: user?.email ?? null,
        otherLanguageHref: `${base}?lang=${locale === 'en' ? 'zh-Hans' : 'en'}`,
      }),
    );
  }

  /** The grant the user just consented to: what the interaction found missing, added to the existing grant or a new one. */
  private async grant(details: InteractionDetails): Promise<string> {
    const accountId = details.session?.accountId;
    const clientId = details.params['client_id'];
    if (!accountId || typeof clientId !== 'string') throw new errors.SessionNotFound('no signed-in user to consent');
    const existing = details.grantId ? await this.provider.Grant.find(details.grantId) : undefined;
    const grant = existing ?? new this.provider.Grant({ accountId, clientId });
    const asked = askedFor(details);
    if (asked.oidcScope.length) grant.addOIDCScope(asked.oidcScope.join(' '));
    if (asked.oidcClaims.length) grant.addOIDCClaims(asked.oidcClaims);
    for (const [indicator, scopes] of Object.entries(asked.resourceScopes)) grant.addResourceScope(indicator, scopes.join(' '));
    // A new grant's id is chosen here (as the provider would: 256 random bits) rather than by its save, so the entry names it.
    if (!existing) grant.jti = randomBytes(32).toString('base64url');
    // The provider stores the grant outside identity's transactions: the entry comes first, so no grant is without one.
    await this.recordConsent(details, 'success', grant.jti);
    return grant.save();
  }

  /**
   * A person's answer on the consent page: what they let the client (an agent's, or a partner app) do, or that they
   * refused. A consent's target is the grant it created or widened (`?target=<grant>` then tells the grant's whole
   * story, from consent to revocation); a refusal, which creates nothing, names the client.
   */
  private async recordConsent(details: InteractionDetails, outcome: 'success', grantId: string): Promise<void>;
  private async recordConsent(details: InteractionDetails, outcome: 'denied'): Promise<void>;
  private async recordConsent(details: InteractionDetails, outcome: 'success' | 'denied', grantId?: string): Promise<void> {
    const accountId = details.session?.accountId;
    const clientId = details.params['client_id'];
    if (!accountId || typeof clientId !== 'string') return;
    const client = await this.client(details);
    const { oidcScope, resourceScopes } = askedFor(details);
    await this.audit.record(
      { kind: 'human', id: accountId },
      {
        action: 'signin.consent',
        target: grantId ?? clientId,
        outcome,
        detail: {
          clientId,
          ...(grantId === undefined ? {} : { grantId }),
          agentClient: client ? isAgentClient(client) : false,
          scope: oidcScope,
          resourceScopes,
        },
      },
    );
  }

  private async finish(req: Request, res: Response, result: InteractionResults, mergeWithLastSubmission: boolean): Promise<void> {
    await this.provider.interactionFinished(req, res, result, { mergeWithLastSubmission });
  }

  private async client(details: InteractionDetails): Promise<InstanceType<Provider['Client']> | undefined> {
    const clientId = details.params['client_id'];
    return typeof clientId === 'string' ? this.provider.Client.find(clientId) : undefined;
  }

  private async appName(details: InteractionDetails): Promise<string> {
    const clientId = details.params['client_id'];
    const client = await this.client(details);
    return client?.clientName ?? (typeof clientId === 'string' ? clientId : '');
  }

  private interactionPath(uid: string): string {
    return `/${SIGNIN_PATH}/${uid}`;
  }

  private get secure(): boolean {
    return this.config.oidcIssuer.startsWith('https:');
  }
}

/**
 * The agent a client is (a public client: known by its metadata document, or registered by RFC 7591), as
 * its consent page names it; null for a partner app. A metadata document's host is what vouches for it.
 */
function agentOf(
  client: { clientId: string; clientName?: string; tokenEndpointAuthMethod?: string },
  redirectUri: unknown,
): ConsentAgent | null {
  if (!isAgentClient(client)) return null;
  const document = client.clientId.startsWith('https://') ? URL.parse(client.clientId) : null;
  // The provider has matched the redirect URI against the client's before any interaction starts.
  const returnsTo = typeof redirectUri === 'string' ? URL.parse(redirectUri) : null;
  return {
    name: client.clientName ?? null,
    clientId: client.clientId,
    publishedBy: document?.host ?? null,
    returnsTo: returnsTo?.host ?? '',
    returnsToThisComputer: agentRedirectKind(redirectUri) === 'loopback',
  };
}

/** What the consent prompt asks the person for: what the client's grant does not hold yet. */
function askedFor(details: InteractionDetails): {
  oidcScope: string[];
  oidcClaims: string[];
  resourceScopes: Record<string, string[]>;
} {
  const missing = details.prompt.details;
  return {
    oidcScope: (missing['missingOIDCScope'] as string[] | undefined) ?? [],
    oidcClaims: (missing['missingOIDCClaims'] as string[] | undefined) ?? [],
    resourceScopes: (missing['missingResourceScopes'] as Record<string, string[]> | undefined) ?? {},
  };
}

function formOf(req: Request): Record<string, string | undefined> {
  return (req.body ?? {}) as Record<string, string | undefined>;
}

function queryLang(req: Request): string | undefined {
  const lang = req.query['lang'];
  return typeof lang === 'string' ? lang : undefined;
}

function langQuery(req: Request): string {
  const lang = queryLang(req);
  return lang ? `?lang=${encodeURIComponent(lang)}` : '';
}
