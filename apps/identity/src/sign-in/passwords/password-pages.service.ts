import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Locale } from '@stdreg/contracts';
import { IdentityConfig } from '../../platform/config/identity.config';
import { csrfToken, csrfValid } from '../pages/csrf';
import { chooseLocale } from '../pages/signin-locale';
import { escapeHtml, messagePage, sendPage, setPasswordPage } from '../pages/signin-pages';
import { textsFor, type Texts } from '../pages/signin-texts';
import { MIN_PASSWORD_LENGTH } from './password-policy';
import { PASSWORD_SETUP_PATH, PasswordsService, type SetupCompletion } from './passwords.service';

/** The set-password form behind a setup link, in the visitor's language. */
@Injectable()
export class PasswordPagesService {
  constructor(
    private readonly passwords: PasswordsService,
    private readonly config: IdentityConfig,
  ) {}

  async show(req: Request, res: Response): Promise<void> {
    const locale = localeOf(req);
    const setup = await this.passwords.findUsableSetup(tokenOf(req));
    if (!setup) return invalidLink(res, locale);
    this.renderForm(req, res, locale, setup.loginEmail, 200);
  }

  async submit(req: Request, res: Response): Promise<void> {
    const locale = localeOf(req);
    const t = textsFor(locale);
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    const setup = await this.passwords.findUsableSetup(tokenOf(req));
    if (!setup) return invalidLink(res, locale);
    if (!csrfValid(req, form['csrf'])) return this.renderForm(req, res, locale, setup.loginEmail, 403, t.formExpired);
    const outcome = await this.passwords.completeSetup(tokenOf(req), form['password'] ?? '', form['confirm'] ?? '');
    if (outcome.kind === 'invalid_link') return invalidLink(res, locale);
    if (outcome.kind === 'rejected') return this.renderForm(req, res, locale, setup.loginEmail, 422, problemText(t, outcome.problem));
    const wayOn = outcome.app
      ? `<p>${escapeHtml(t.signInAt(outcome.app.name))} <span class="email">${escapeHtml(outcome.loginEmail)}</span></p>\n<p><a class="button" href="${escapeHtml(outcome.app.url)}">${escapeHtml(t.goTo(outcome.app.name))}</a></p>`
      : `<p>${escapeHtml(t.signInAtTheApp)} <span class="email">${escapeHtml(outcome.loginEmail)}</span></p>`;
    sendPage(
      res,
      200,
      messagePage(locale, (texts) => texts.passwordSetTitle, t.passwordSet, 'notice', wayOn),
    );
  }

  private renderForm(req: Request, res: Response, locale: Locale, email: string, status: number, error?: string): void {
    const path = `/${PASSWORD_SETUP_PATH}/${tokenOf(req)}`;
    sendPage(
      res,
      status,
      setPasswordPage({
        locale,
        action: `${path}?lang=${locale}`,
        csrf: csrfToken(req, res, this.config.oidcIssuer.startsWith('https:')),
        email,
        minLength: MIN_PASSWORD_LENGTH,
        ...(error ? { error } : {}),
        otherLanguageHref: `${path}?lang=${locale === 'en' ? 'zh-Hans' : 'en'}`,
      }),
    );
  }
}

function problemText(t: Texts, problem: Extract<SetupCompletion, { kind: 'rejected' }>['problem']): string {
  switch (problem) {
    case 'mismatch':
      return t.mismatch;
    case 'email_taken':
      return t.linkInvalid;
    case 'too_short':
      return t.policy.too_short(MIN_PASSWORD_LENGTH);
    default:
      return t.policy[problem]();
  }
}

function invalidLink(res: Response, locale: Locale): void {
  sendPage(
    res,
    410,
    messagePage(locale, (texts) => texts.linkInvalidTitle, textsFor(locale).linkInvalid, 'alert'),
  );
}

function tokenOf(req: Request): string {
  const token = req.params['token'];
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : '';
}

function localeOf(req: Request): Locale {
  const lang = req.query['lang'];
  return chooseLocale(typeof lang === 'string' ? lang : undefined, req.headers['accept-language']);
}
