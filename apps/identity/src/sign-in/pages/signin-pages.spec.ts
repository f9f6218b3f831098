import { AGENT_SCOPES, LOCALES } from '@stdreg/contracts';
import { consentPage, loginPage, setPasswordPage, type ConsentPageModel } from './signin-pages';
import { textsFor } from './signin-texts';

const page = (model: Partial<ConsentPageModel>): string =>
  consentPage({
    locale: 'en',
    action: '/v1/signin/abc/consent',
    csrf: 'token',
    appName: 'Research Agent',
    scopes: [...AGENT_SCOPES, 'offline_access'],
    email: 'mei@example.com',
    otherLanguageHref: '/v1/signin/abc?lang=zh-Hans',
    ...model,
  });

/** The page as a person reads it: tags out, entities back. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the consent page of an agent', () => {
  const back = { returnsTo: 'research.example.net', returnsToThisComputer: false };
  const byDocument = {
    name: 'Research Agent',
    clientId: 'https://agents.example.com/research.json',
    publishedBy: 'agents.example.com',
    ...back,
  };

  it.each(LOCALES)('names the agent and the host of its metadata document, and lists what it may and can never do (%s)', (locale) => {
    const t = textsFor(locale);
    const shown = text(page({ locale, agent: byDocument }));
    expect(shown).toContain(t.agentConsentTitle);
    expect(shown).toContain(t.agentIs('Research Agent'));
    expect(shown).toContain('agents.example.com');
    expect(shown).toContain('https://agents.example.com/research.json');
    expect(shown).toContain(t.agentPublishedHint('agents.example.com'));
    for (const scope of AGENT_SCOPES) expect(shown).toContain(t.agentScopes[scope]);
    expect(shown).toContain(t.scopes['offline_access']);
    for (const never of t.agentNever) expect(shown).toContain(never);
    expect(shown).toContain(t.agentNeverWhy);
  });

  it('says that a self-registered agent names itself, and shows its client id', () => {
    const shown = text(page({ agent: { name: 'Desk Agent', clientId: 'tB1nzy_VD2qBntJg', publishedBy: null, ...back } }));
    expect(shown).toContain('This agent registered itself here: its name is what it says about itself.');
    expect(shown).toContain('tB1nzy_VD2qBntJg');
    expect(shown).not.toContain('Published by');
  });

  it('calls an agent without a name by the host of its document, or says it has none', () => {
    expect(text(page({ agent: { ...byDocument, name: null } }))).toContain('agents.example.com is an agent');
    expect(text(page({ agent: { name: null, clientId: 'abc', publishedBy: null, ...back } }))).toContain(
      'An agent without a name is an agent',
    );
  });

  it.each(LOCALES)('names the host the sign-in returns to, and warns when that is this computer (%s)', (locale) => {
    const t = textsFor(locale);
    const onTheWeb = text(page({ locale, agent: byDocument }));
    expect(onTheWeb).toContain(`${t.agentReturnsTo} research.example.net`);
    expect(onTheWeb).not.toContain(t.agentReturnsToThisComputer('research.example.net'));
    const local = text(page({ locale, agent: { ...byDocument, returnsTo: '127.0.0.1:53682', returnsToThisComputer: true } }));
    expect(local).toContain(`${t.agentReturnsTo} 127.0.0.1:53682`);
    expect(local).toContain(t.agentReturnsToThisComputer('127.0.0.1:53682'));
  });

  it('escapes what the agent says about itself', () => {
    const html = page({ agent: { ...byDocument, name: '<script>alert(1)</script>' } });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('keeps the never list when nothing new is asked', () => {
    const shown = text(page({ agent: byDocument, scopes: [] }));
    expect(shown).toContain('Research Agent asks to go on with the access you gave it before. Nothing new is asked.');
    expect(shown).toContain('post a settlement');
  });

  it('leaves a partner app’s page as it was', () => {
    const shown = text(page({ appName: 'Studio Portal', scopes: ['openid', 'api'] }));
    expect(shown).toContain('Studio Portal asks to:');
    expect(shown).not.toContain('It can never');
  });
});

describe('the consent page of a partner app', () => {
  // The provider's `profile` scope gives the `name` claim alone: a person has no language of their own to give.
  it.each([
    ['en', 'see your name', 'language'],
    ['zh-Hans', '查看您的姓名', '语言'],
  ] as const)('promises for profile what the app will get, the name, and no language (%s)', (locale, name, language) => {
    const shown = text(page({ locale, appName: 'Partner Portal', scopes: ['openid', 'profile'] }));
    expect(shown).toContain(name);
    expect(shown).not.toContain(language);
  });
});

describe('the password page', () => {
  // What password-policy.ts refuses, each said before the person types: a hint that said only "not a run
  // of one character" let abababababab through the page and then refused it.
  it.each([
    [
      'en',
      'At least 12 characters (spaces in a row count as one), at least 5 of them different; not containing your email address; not a common or easily guessed password.',
    ],
    ['zh-Hans', '至少 12 个字符（连续的空格算作一个），其中至少 5 个不同的字符；不能包含您的电子邮件地址；不能是常见或容易被猜到的密码。'],
  ] as const)('states every rule of the policy in its hint (%s)', (locale, hint) => {
    const html = setPasswordPage({
      locale,
      action: '/v1/password-setup/abc',
      csrf: 'token',
      email: 'mei@example.com',
      minLength: 12,
      otherLanguageHref: '/v1/password-setup/abc?lang=en',
    });
    expect(text(html)).toContain(hint);
  });
});

describe('text a person or a client chose, on the pages', () => {
  const hostile = 'x" autofocus onfocus="alert(1)@example.com';

  it('keeps an email typed into the login form inside its attribute', () => {
    const html = loginPage({
      locale: 'en',
      action: '/v1/signin/abc/login',
      abortAction: '/v1/signin/abc/abort',
      csrf: 'token',
      appName: 'Studio <b>Portal</b>',
      email: hostile,
      error: 'The password is not correct.',
      otherLanguageHref: '/v1/signin/abc?lang=zh-Hans',
    });
    expect(html).toContain('value="x&quot; autofocus onfocus=&quot;alert(1)@example.com"');
    expect(html).not.toContain('onfocus="alert(1)');
    expect(html).toContain('Studio &lt;b&gt;Portal&lt;/b&gt;');
  });

  it('keeps the email of a password link inside its attribute', () => {
    const html = setPasswordPage({
      locale: 'en',
      action: '/v1/password-setup/abc',
      csrf: 'token',
      email: hostile,
      minLength: 12,
      otherLanguageHref: '/v1/password-setup/abc?lang=zh-Hans',
    });
    expect(html).not.toContain('onfocus="alert(1)');
    expect(html).toContain('value="x&quot; autofocus onfocus=&quot;alert(1)@example.com"');
  });
});

describe('the sign-in lock', () => {
  // Locks double up to a day (SIGNIN_LOCKOUT_SECONDS, then twice as long each time): a long one is said in hours.
  it.each([
    ['en', 15, 'Try again in 15 minutes.'],
    ['en', 60, 'Try again in 60 minutes.'],
    ['en', 961, 'Try again in 17 hours.'],
    ['en', 1440, 'Try again in 24 hours.'],
    ['zh-Hans', 30, '请在 30 分钟后重试。'],
    ['zh-Hans', 1440, '请在 24 小时后重试。'],
  ] as const)('says how long it lasts (%s, %i minutes)', (locale, minutes, said) => {
    expect(textsFor(locale).locked(minutes)).toContain(said);
  });
});
