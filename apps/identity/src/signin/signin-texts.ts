import type { Locale } from '@stdreg/contracts';

const EN = {
  htmlLang: 'en',
  otherLanguage: '中文',
  signInTitle: 'Sign in',
  signInTo: (app: string) => `Sign in to continue to ${app}`,
  email: 'Email address',
  password: 'Password',
  signIn: 'Sign in',
  cancel: 'Cancel',
  unknownUser: 'There is no account with this email address.',
  ambiguousUser: 'More than one account signs in with this email address here. Sign in through the app your account belongs to.',
  wrongPassword: 'The password is not correct.',
  attemptsLeft: (n: number) =>
    n === 1 ? 'One attempt left before the account is locked.' : `${n} attempts left before the account is locked.`,
  locked: (minutes: number) =>
    `Too many failed attempts: this account is locked. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  noPassword: 'This account has no password yet. Use the link you were sent to set one.',
  tooManyFromHere: (minutes: number) =>
    `Too many sign-in attempts from your network. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  formExpired: 'This form has expired. Please try again.',
  consentTitle: 'Allow access',
  consentIntro: (app: string) => `${app} asks to:`,
  scopes: {
    openid: 'know who you are (your unified user id and roles)',
    profile: 'see your name and language',
    email: 'see your email address',
    offline_access: 'stay connected when you are away',
    api: 'use the standards API on your behalf',
  } as Record<string, string>,
  allow: 'Allow',
  deny: 'Deny',
  signedInAs: (email: string) => `Signed in as ${email}`,
  setPasswordTitle: 'Set your password',
  setPasswordIntro: (email: string) => `Choose a password for ${email}.`,
  newPassword: 'New password',
  confirmPassword: 'Repeat the password',
  passwordRules: (min: number) => `At least ${min} characters; not your email address; not a run of one character.`,
  setPassword: 'Set password',
  passwordSet: 'Your password is set. You can now sign in.',
  mismatch: 'The two passwords are not the same.',
  linkInvalid: 'This link is not valid: it was used already, it expired, or it was replaced by a newer one. Ask for a new link.',
  policy: {
    too_short: (min: number) => `The password must have at least ${min} characters.`,
    too_long: () => 'The password must have at most 128 characters.',
    contains_email: () => 'The password must not contain your email address.',
    too_simple: () => 'The password must use at least 5 different characters.',
  },
  errorTitle: 'Sign-in could not continue',
  errorBack: 'Go back to the app you came from and start again.',
  logoutTitle: 'Sign out',
  logoutQuestion: 'Do you want to sign out?',
  logoutYes: 'Yes, sign me out',
  logoutNo: 'No, stay signed in',
  loggedOut: 'You are signed out.',
};

export type Texts = typeof EN;

const ZH_HANS: Texts = {
  htmlLang: 'zh-Hans',
  otherLanguage: 'English',
  signInTitle: '登录',
  signInTo: (app: string) => `登录以继续使用 ${app}`,
  email: '电子邮件地址',
  password: '密码',
  signIn: '登录',
  cancel: '取消',
  unknownUser: '没有使用此电子邮件地址的账户。',
  ambiguousUser: '此处有多个账户使用此电子邮件地址登录。请通过您账户所属的应用登录。',
  wrongPassword: '密码不正确。',
  attemptsLeft: (n: number) => `再失败 ${n} 次，账户将被锁定。`,
  locked: (minutes: number) => `失败次数过多，此账户已被锁定。请在 ${minutes} 分钟后重试。`,
  noPassword: '此账户尚未设置密码。请使用发送给您的链接设置密码。',
  tooManyFromHere: (minutes: number) => `来自您网络的登录尝试过多。请在 ${minutes} 分钟后重试。`,
  formExpired: '此表单已过期，请重试。',
  consentTitle: '授权访问',
  consentIntro: (app: string) => `${app} 请求：`,
  scopes: {
    openid: '知道您是谁（您的统一用户标识和角色）',
    profile: '查看您的姓名和语言',
    email: '查看您的电子邮件地址',
    offline_access: '在您离开时保持连接',
    api: '代表您使用标准 API',
  } as Record<string, string>,
  allow: '允许',
  deny: '拒绝',
  signedInAs: (email: string) => `已登录为 ${email}`,
  setPasswordTitle: '设置密码',
  setPasswordIntro: (email: string) => `为 ${email} 设置密码。`,
  newPassword: '新密码',
  confirmPassword: '再次输入密码',
  passwordRules: (min: number) => `至少 ${min} 个字符；不能是您的电子邮件地址；不能全是同一个字符。`,
  setPassword: '设置密码',
  passwordSet: '密码已设置。现在可以登录了。',
  mismatch: '两次输入的密码不一致。',
  linkInvalid: '此链接无效：已被使用、已过期或已被新链接取代。请索取新的链接。',
  policy: {
    too_short: (min: number) => `密码至少需要 ${min} 个字符。`,
    too_long: () => '密码最多 128 个字符。',
    contains_email: () => '密码不能包含您的电子邮件地址。',
    too_simple: () => '密码至少需要使用 5 个不同的字符。',
  },
  errorTitle: '无法继续登录',
  errorBack: '请返回您来自的应用并重新开始。',
  logoutTitle: '退出登录',
  logoutQuestion: '您要退出登录吗？',
  logoutYes: '是，退出登录',
  logoutNo: '否，保持登录',
  loggedOut: '您已退出登录。',
};

/** Every text of the sign-in, consent, password and error pages, in both languages. */
const TEXTS: Record<Locale, Texts> = { en: EN, 'zh-Hans': ZH_HANS };

export function textsFor(locale: Locale): Texts {
  return TEXTS[locale];
}
