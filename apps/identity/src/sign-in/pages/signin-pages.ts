import type { Response } from 'express';
import type { Locale } from '@stdreg/contracts';
import { textsFor, type Texts } from './signin-texts';

/** The HTML of the sign-in, consent, password and message pages: plain forms, no script, labelled fields. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC","PingFang SC","Microsoft YaHei","WenQuanYi Zen Hei",sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:26rem;margin:3rem auto;background:#fff;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.15);padding:2rem}
h1{font-size:1.5rem;margin:0 0 .5rem}p{line-height:1.5}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;font-size:1rem;padding:.6rem;border:1px solid #8a93a6;border-radius:4px}
input:focus,button:focus{outline:3px solid #2456c8;outline-offset:1px}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{font-size:1rem;padding:.6rem 1.2rem;border-radius:4px;border:1px solid #2456c8;background:#2456c8;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#2456c8}
.alert{border-left:4px solid #b3261e;background:#fdecea;padding:.75rem;margin:1rem 0}
.notice{border-left:4px solid #1e7b34;background:#e8f5ec;padding:.75rem;margin:1rem 0}
.hint{color:#4a5263;font-size:.9rem}
nav{text-align:right;font-size:.9rem}
.email{word-break:break-all}
a.button{display:inline-block;font-size:1rem;padding:.6rem 1.2rem;border-radius:4px;background:#2456c8;color:#fff;text-decoration:none}
ul{padding-left:1.2rem}
h2{font-size:1.1rem;margin:0 0 .25rem}
dl.client{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;margin:1rem 0}dl.client dt{font-weight:600}dl.client dd{margin:0;word-break:break-all}
.never{border-left:4px solid #8a5a00;background:#fff6e0;padding:.75rem;margin:1rem 0}.never p,.never ul{margin:.25rem 0}
.warning{border-left:4px solid #8a5a00;background:#fff6e0;padding:.75rem;margin:1rem 0}`;

function layout(locale: Locale, title: string, body: string, otherLanguageHref?: string): string {
  const t = textsFor(locale);
  const other = locale === 'en' ? 'zh-Hans' : 'en';
  const nav = otherLanguageHref
    ? `<nav><a href="${escapeHtml(otherLanguageHref)}" lang="${other}" hreflang="${other}">${t.otherLanguage}</a></nav>`
    : '';
  return `<!DOCTYPE html>
<html lang="${t.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${nav}
${body}
</main>
</body>
</html>`;
}

function alert(message: string | undefined): string {
  return message ? `<div class="alert" role="alert" id="form-error">${escapeHtml(message)}</div>` : '';
}

export interface LoginPageModel {
  locale: Locale;
  action: string;
  abortAction: string;
  csrf: string;
  appName: string;
  email?: string;
  error?: string;
  otherLanguageHref: string;
}

export function loginPage(model: LoginPageModel): string {
  const t = textsFor(model.locale);
  const described = model.error ? ' aria-describedby="form-error" aria-invalid="true"' : '';
  // With the email already given (a failed attempt), the password is what to type next.
  const emailFocus = model.email ? '' : ' autofocus';
  const passwordFocus = model.email ? ' autofocus' : '';
  return layout(
    model.locale,
    model.error ? t.withError(t.signInTitle) : t.signInTitle,
    `<h1>${t.signInTitle}</h1>
<p>${escapeHtml(t.signInTo(model.appName))}</p>
${alert(model.error)}
<form method="post" action="${escapeHtml(model.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required${emailFocus} value="${escapeHtml(model.email ?? '')}"${described}>
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${passwordFocus}${described}>
<div class="actions">
<button type="submit">${t.signIn}</button>
<button type="submit" class="secondary" formaction="${escapeHtml(model.abortAction)}" formnovalidate>${t.cancel}</button>
</div>
</form>`,
    model.otherLanguageHref,
  );
}

/** Who an agent client is, as far as identity can tell a person. */
export interface ConsentAgent {
  /** Its client_name, when it gave one. */
  name: string | null;
  clientId: string;
  /** The host serving its Client ID Metadata Document (an https client id); null for a client that registered itself. */
  publishedBy: string | null;
  /** The host of the redirect URI this sign-in goes back to (with its port): where the code is sent. */
  returnsTo: string;
  /** That host is a loopback address: any program on the person's computer could be listening there. */
  returnsToThisComputer: boolean;
}

export interface ConsentPageModel {
  locale: Locale;
  action: string;
  csrf: string;
  appName: string;
  scopes: string[];
  email: string | null;
  otherLanguageHref: string;
  /** Set when the client is an agent (a public client): the page names it and says what it can never do. */
  agent?: ConsentAgent;
}

function scopeText(t: Texts, scope: string): string {
  return (t.agentScopes as Record<string, string>)[scope] ?? t.scopes[scope] ?? scope;
}

export function consentPage(model: ConsentPageModel): string {
  const t = textsFor(model.locale);
  if (model.agent) return agentConsentPage(model, model.agent, t);
  const items = model.scopes.map((scope) => `<li>${escapeHtml(scopeText(t, scope))}</li>`).join('');
  // Nothing new to ask (the app asks again for what it has): say what is being confirmed instead of an empty list.
  const asked = items
    ? `<p>${escapeHtml(t.consentIntro(model.appName))}</p>\n<ul>${items}</ul>`
    : `<p>${escapeHtml(t.consentNothingNew(model.appName))}</p>`;
  return consentLayout(model, t, t.consentTitle, asked);
}

/**
 * An agent asks: who it is (its name, and what vouches for it: the host of its metadata document, or
 * nothing when it registered itself), what it may do, and what it can never do whatever the person allows.
 */
function agentConsentPage(model: ConsentPageModel, agent: ConsentAgent, t: Texts): string {
  const name = agent.name ?? agent.publishedBy ?? t.unnamedAgent;
  const items = model.scopes.map((scope) => `<li>${escapeHtml(scopeText(t, scope))}</li>`).join('');
  const who = `<dl class="client">
<dt>${t.agentName}</dt><dd>${escapeHtml(agent.name ?? t.unnamedAgent)}</dd>
${agent.publishedBy ? `<dt>${t.agentPublishedBy}</dt><dd>${escapeHtml(agent.publishedBy)}</dd>\n` : ''}<dt>${t.agentClientId}</dt><dd><code>${escapeHtml(agent.clientId)}</code></dd>
<dt>${t.agentReturnsTo}</dt><dd><code>${escapeHtml(agent.returnsTo)}</code></dd>
</dl>
<p class="hint">${escapeHtml(agent.publishedBy ? t.agentPublishedHint(agent.publishedBy) : t.agentSelfRegistered)}</p>
${agent.returnsToThisComputer ? `<p class="warning" role="note">${escapeHtml(t.agentReturnsToThisComputer(agent.returnsTo))}</p>\n` : ''}`;
  const asked = items
    ? `<p>${escapeHtml(t.agentMay(name))}</p>\n<ul class="may">${items}</ul>`
    : `<p>${escapeHtml(t.agentNothingNew(name))}</p>`;
  const never = `<section class="never" aria-labelledby="never-title">
<h2 id="never-title">${t.agentNeverTitle}</h2>
<ul>${t.agentNever.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>
<p>${escapeHtml(t.agentNeverWhy)}</p>
</section>`;
  return consentLayout(model, t, t.agentConsentTitle, `<p>${escapeHtml(t.agentIs(name))}</p>\n${who}\n${asked}\n${never}`);
}

function consentLayout(model: ConsentPageModel, t: Texts, title: string, body: string): string {
  return layout(
    model.locale,
    title,
    `<h1>${title}</h1>
${model.email ? `<p class="hint">${t.signedInAs(`<span class="email">${escapeHtml(model.email)}</span>`)}</p>` : ''}
${body}
<form method="post" action="${escapeHtml(model.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<div class="actions">
<button type="submit" name="decision" value="allow">${t.allow}</button>
<button type="submit" name="decision" value="deny" class="secondary">${t.deny}</button>
</div>
</form>`,
    model.otherLanguageHref,
  );
}

export interface SetPasswordPageModel {
  locale: Locale;
  action: string;
  csrf: string;
  email: string;
  minLength: number;
  error?: string;
  otherLanguageHref: string;
}

export function setPasswordPage(model: SetPasswordPageModel): string {
  const t = textsFor(model.locale);
  const invalid = model.error ? ' aria-invalid="true"' : '';
  return layout(
    model.locale,
    model.error ? t.withError(t.setPasswordTitle) : t.setPasswordTitle,
    `<h1>${t.setPasswordTitle}</h1>
<p>${t.setPasswordIntro(`<span class="email">${escapeHtml(model.email)}</span>`)}</p>
${alert(model.error)}
<form method="post" action="${escapeHtml(model.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<input type="hidden" name="username" autocomplete="username" value="${escapeHtml(model.email)}">
<label for="password">${t.newPassword}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${model.minLength}" aria-describedby="password-rules${model.error ? ' form-error' : ''}"${invalid}>
<p class="hint" id="password-rules">${escapeHtml(t.passwordRules(model.minLength))}</p>
<label for="confirm">${t.confirmPassword}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required${model.error ? ' aria-describedby="form-error"' : ''}${invalid}>
<div class="actions"><button type="submit">${t.setPassword}</button></div>
</form>`,
    model.otherLanguageHref,
  );
}

/** A page with a title and a message: errors, done, signed out; `extra` is HTML, escaped by the caller. */
export function messagePage(
  locale: Locale,
  title: (t: Texts) => string,
  message: string,
  kind: 'alert' | 'notice',
  extra = '',
  otherLanguageHref?: string,
): string {
  const t = textsFor(locale);
  return layout(
    locale,
    title(t),
    `<h1>${escapeHtml(title(t))}</h1>\n<div class="${kind}" role="${kind === 'alert' ? 'alert' : 'status'}">${escapeHtml(message)}</div>\n${extra}`,
    otherLanguageHref,
  );
}

/**
 * The headers every sign-in, password and OpenID Provider page carries: never framed (clickjacking),
 * never cached or stored, no referrer (set-password URLs hold their token), no script.
 */
export const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
} as const;

export function sendPage(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({ 'Content-Type': 'text/html; charset=utf-8', ...PAGE_HEADERS })
    .send(html);
}
