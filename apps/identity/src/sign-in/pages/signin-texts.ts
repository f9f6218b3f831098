import type { AgentScope, Locale } from '@stdreg/contracts';

/** A lock longer than this (they double up to a day) is said in hours: nobody counts 1440 minutes. */
const LONGEST_WAIT_IN_MINUTES = 90;

const EN = {
  htmlLang: 'en',
  otherLanguage: '中文',
  /** The title of a page whose form came back with an error: a screen reader says the error before anything else. */
  withError: (title: string) => `Error: ${title}`,
  signInTitle: 'Sign in',
  signInTo: (app: string) => `Sign in to continue to ${app}`,
  email: 'Email address',
  password: 'Password',
  signIn: 'Sign in',
  cancel: 'Cancel',
  unknownUser: 'There is no account with this email address.',
  ambiguousUser: 'More than one account signs in with this email address here. Sign in through the app your account belongs to.',
  wrongPassword: 'The password is not correct.',
  /** Sentences run together as the language writes them: a space after an English full stop, none after 。 */
  sentences: (...parts: string[]) => parts.join(' '),
  attemptsLeft: (n: number) =>
    n === 1 ? 'One attempt left before the account is locked.' : `${n} attempts left before the account is locked.`,
  locked: (minutes: number) =>
    `Too many failed attempts: this account is locked. Try again in ${
      minutes > LONGEST_WAIT_IN_MINUTES ? `${Math.ceil(minutes / 60)} hours` : `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
    }.`,
  lockedUntilNewPassword:
    'Too many failed attempts in a row: this account is locked until its password is set again. Ask the app you sign in to for a new password link.',
  noPassword: 'This account has no password yet. Use the link you were sent to set one.',
  tooManyFromHere: (minutes: number) =>
    `Too many sign-in attempts from your network. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  formExpired: 'This form has expired. Please try again.',
  signInUnavailable: 'Signing in is not available at the moment. Try again in a minute.',
  consentTitle: 'Allow access',
  consentIntro: (app: string) => `${app} asks to:`,
  consentNothingNew: (app: string) =>
    `${app} asks you to confirm that it may go on using the access you gave it before. Nothing new is asked.`,
  scopes: {
    openid: 'know who you are (your unified user id and roles)',
    profile: 'see your name',
    email: 'see your email address',
    offline_access: 'stay connected when you are away',
    api: 'use the standards API on your behalf',
  } as Record<string, string>,
  /**
   * What an agent client may do, per scope it asks for: AGENT_SCOPE_DESCRIPTIONS (libs/contracts) said
   * to the person it acts for. Keyed by AgentScope, so a new scope without its texts does not compile.
   */
  agentScopes: {
    'registry:read': 'use the tools that read the standards registry or compute from what it sends them',
    'projects:read': 'read your organizations: their split projects, settlement runs and equity ledgers',
    'projects:draft': 'draft split projects in your organizations',
  } satisfies Record<AgentScope, string>,
  agentConsentTitle: 'Allow an agent to act for you',
  agentIs: (agent: string) => `${agent} is an agent: software that will act for you through the platform's tools.`,
  agentName: 'Name',
  agentPublishedBy: 'Published by',
  agentClientId: 'Client ID',
  /** A metadata document is served by its host over https: that host vouches for the name. */
  agentPublishedHint: (host: string) => `${host} publishes this agent's description; check that you know and trust it.`,
  /** A registered client's name is only what it said when it registered itself. */
  agentSelfRegistered: 'This agent registered itself here: its name is what it says about itself. Allow it only if you started it.',
  agentReturnsTo: 'Returns you to',
  /** MCP's "Localhost Redirect URI Risks": any program on the computer may listen on a loopback port, claiming any agent's name. */
  agentReturnsToThisComputer: (host: string) =>
    `This sign-in goes back to ${host}, a program on your own computer. Any program there could ask in another agent's name: allow only if you started this agent yourself just now.`,
  unnamedAgent: 'An agent without a name',
  agentMay: (agent: string) => `If you allow, ${agent} may:`,
  agentNothingNew: (agent: string) => `${agent} asks to go on with the access you gave it before. Nothing new is asked.`,
  agentNeverTitle: 'It can never',
  agentNever: ['approve anything or activate a split project', 'create a rule version', 'post a settlement', 'pay, or write equity'],
  agentNeverWhy: 'Those stay with people who sign in themselves.',
  allow: 'Allow',
  deny: 'Deny',
  signedInAs: (email: string) => `Signed in as ${email}`,
  setPasswordTitle: 'Set your password',
  setPasswordIntro: (email: string) => `Choose a password for ${email}.`,
  newPassword: 'New password',
  confirmPassword: 'Repeat the password',
  passwordRules: (min: number) =>
    `At least ${min} characters (spaces in a row count as one), at least 5 of them different; not containing your email address; not a common or easily guessed password.`,
  setPassword: 'Set password',
  passwordSetTitle: 'Your password is set',
  passwordSet: 'Your password is set. You can now sign in.',
  passwordSetupUnavailable: 'Setting a password is not available at the moment. Try again in a minute.',
  passwordSetupFailed: 'Your password could not be set. Open the link again, or ask for a new one.',
  signInAt: (app: string) => `Sign in to ${app} with`,
  signInAtTheApp: 'Sign in to the app that sent you this link with',
  goTo: (app: string) => `Go to ${app}`,
  mismatch: 'The two passwords are not the same.',
  linkInvalidTitle: 'This password link cannot be used',
  linkInvalid: 'This link is not valid: it was used already, it expired, or it was replaced by a newer one. Ask for a new link.',
  policy: {
    too_short: (min: number) => `The password must have at least ${min} characters; spaces in a row count as one.`,
    too_long: () => 'The password must have at most 128 characters.',
    contains_email: () => 'The password must not contain your email address.',
    too_simple: () => 'The password must use at least 5 different characters.',
    common_password: () =>
      'This password is too easy to guess: it is, or is built on, a password many people use. Choose another, for example a few words that do not belong together.',
    common_words: () =>
      'This password is too easy to guess: it is made of common words with little else. Add more words, or choose words that do not belong together.',
    personal_words: () =>
      'This password is too easy to guess: it is built on your name or email address, or on the name of the app or of this site. Choose one without them.',
    repeated_characters: () =>
      'This password is too easy to guess: it repeats a character or a group of characters (like aaaa or abcabc). Choose another.',
    sequential_characters: () =>
      'This password is too easy to guess: it runs through characters in order or keys side by side (like 1234, abcd or qwerty). Choose another.',
    date: () =>
      'This password is too easy to guess: it is built on a date or a year. Choose another, for example a few words that do not belong together.',
    easy_to_guess: () => 'This password is too easy to guess. Choose another, for example a few words that do not belong together.',
  },
  errorTitle: 'Sign-in could not continue',
  errorBack: 'Go back to the app you came from and start again.',
  /** An agent's error answer held back (RFC 9700 §4.11.2): the person, not identity, decides to go there. */
  errorUnvouchedReturn: (host: string) =>
    `The app asked to be answered at ${host}. Nothing here vouches for that address: follow the link only if you know it.`,
  errorUnvouchedReturnLink: (host: string) => `Go back to ${host}`,
  logoutTitle: 'Sign out',
  logoutQuestion: 'Do you want to sign out?',
  logoutQuestionFrom: (app: string) => `${app} asks to sign you out. Do you want to sign out?`,
  logoutYes: 'Yes, sign me out',
  logoutNo: 'No, stay signed in',
  loggedOut: 'You are signed out.',
};

export type Texts = typeof EN;

const ZH_HANS: Texts = {
  htmlLang: 'zh-Hans',
  otherLanguage: 'English',
  withError: (title: string) => `错误：${title}`,
  signInTitle: '登录',
  signInTo: (app: string) => `登录以继续使用 ${app}`,
  email: '电子邮件地址',
  password: '密码',
  signIn: '登录',
  cancel: '取消',
  unknownUser: '没有使用此电子邮件地址的账户。',
  ambiguousUser: '此处有多个账户使用此电子邮件地址登录。请通过您账户所属的应用登录。',
  wrongPassword: '密码不正确。',
  sentences: (...parts: string[]) => parts.join(''),
  attemptsLeft: (n: number) => `再失败 ${n} 次，账户将被锁定。`,
  locked: (minutes: number) =>
    `失败次数过多，此账户已被锁定。请在 ${minutes > LONGEST_WAIT_IN_MINUTES ? `${Math.ceil(minutes / 60)} 小时` : `${minutes} 分钟`}后重试。`,
  lockedUntilNewPassword: '连续失败次数过多，此账户已被锁定，重新设置密码后才能登录。请向您登录的应用索取新的密码设置链接。',
  noPassword: '此账户尚未设置密码。请使用发送给您的链接设置密码。',
  tooManyFromHere: (minutes: number) => `来自您网络的登录尝试过多。请在 ${minutes} 分钟后重试。`,
  formExpired: '此表单已过期，请重试。',
  signInUnavailable: '暂时无法登录。请稍后重试。',
  consentTitle: '授权访问',
  consentIntro: (app: string) => `${app} 请求：`,
  consentNothingNew: (app: string) => `${app} 请您确认它可以继续使用您之前授予的访问权限。没有新的请求。`,
  scopes: {
    openid: '知道您是谁（您的统一用户标识和角色）',
    profile: '查看您的姓名',
    email: '查看您的电子邮件地址',
    offline_access: '在您离开时保持连接',
    api: '代表您使用标准 API',
  } as Record<string, string>,
  agentScopes: {
    'registry:read': '调用读取标准注册库或仅根据输入进行计算的工具',
    'projects:read': '读取您所在组织的数据：分账项目、结算批次、权益分类账',
    'projects:draft': '在您所在的组织中起草分账项目',
  },
  agentConsentTitle: '允许智能体代表您操作',
  agentIs: (agent: string) => `${agent} 是一个智能体：将通过平台工具代表您操作的软件。`,
  agentName: '名称',
  agentPublishedBy: '发布者',
  agentClientId: '客户端标识',
  agentPublishedHint: (host: string) => `此智能体的说明由 ${host} 发布；请确认您认识并信任它。`,
  agentSelfRegistered: '此智能体在此自行注册：名称由它自己声明。只有在它是由您启动的情况下才允许。',
  agentReturnsTo: '返回到',
  agentReturnsToThisComputer: (host: string) =>
    `此登录将返回到 ${host}，即您自己电脑上的一个程序。该电脑上的任何程序都可能冒用其他智能体的名义：只有在您刚刚亲自启动了此智能体时才允许。`,
  unnamedAgent: '未命名的智能体',
  agentMay: (agent: string) => `如果您允许，${agent} 可以：`,
  agentNothingNew: (agent: string) => `${agent} 请求继续使用您之前授予的访问权限。没有新的请求。`,
  agentNeverTitle: '它永远不能',
  agentNever: ['审批任何事项或启用分账项目', '创建规则版本', '结算过账', '付款或写入权益'],
  agentNeverWhy: '这些操作只能由亲自登录的人员完成。',
  allow: '允许',
  deny: '拒绝',
  signedInAs: (email: string) => `已登录为 ${email}`,
  setPasswordTitle: '设置密码',
  setPasswordIntro: (email: string) => `为 ${email} 设置密码。`,
  newPassword: '新密码',
  confirmPassword: '再次输入密码',
  passwordRules: (min: number) =>
    `至少 ${min} 个字符（连续的空格算作一个），其中至少 5 个不同的字符；不能包含您的电子邮件地址；不能是常见或容易被猜到的密码。`,
  setPassword: '设置密码',
  passwordSetTitle: '密码已设置',
  passwordSet: '密码已设置。现在可以登录了。',
  passwordSetupUnavailable: '暂时无法设置密码。请稍后重试。',
  passwordSetupFailed: '无法设置您的密码。请重新打开链接，或申请新的链接。',
  signInAt: (app: string) => `请登录 ${app}，使用`,
  signInAtTheApp: '请登录向您发送此链接的应用，使用',
  goTo: (app: string) => `前往 ${app}`,
  mismatch: '两次输入的密码不一致。',
  linkInvalidTitle: '此密码链接无法使用',
  linkInvalid: '此链接无效：已被使用、已过期或已被新链接取代。请索取新的链接。',
  policy: {
    too_short: (min: number) => `密码至少需要 ${min} 个字符，连续的空格算作一个。`,
    too_long: () => '密码最多 128 个字符。',
    contains_email: () => '密码不能包含您的电子邮件地址。',
    too_simple: () => '密码至少需要使用 5 个不同的字符。',
    common_password: () => '此密码太容易被猜到：它就是或基于许多人使用的密码。请换一个，例如几个互不相关的词。',
    common_words: () => '此密码太容易被猜到：它几乎只由常见单词组成。请多加几个词，或选择互不相关的词。',
    personal_words: () => '此密码太容易被猜到：它基于您的姓名或电子邮件地址，或该应用或本网站的名称。请换一个不含这些内容的密码。',
    repeated_characters: () => '此密码太容易被猜到：它重复同一个字符或同一组字符（例如 aaaa 或 abcabc）。请换一个。',
    sequential_characters: () => '此密码太容易被猜到：它由按顺序排列的字符或键盘上相邻的按键组成（例如 1234、abcd 或 qwerty）。请换一个。',
    date: () => '此密码太容易被猜到：它基于日期或年份。请换一个，例如几个互不相关的词。',
    easy_to_guess: () => '此密码太容易被猜到。请换一个，例如几个互不相关的词。',
  },
  errorTitle: '无法继续登录',
  errorBack: '请返回您来自的应用并重新开始。',
  errorUnvouchedReturn: (host: string) => `该应用要求将结果发送到 ${host}。此处无人为该地址担保：只有在您认识它时才点击链接。`,
  errorUnvouchedReturnLink: (host: string) => `返回 ${host}`,
  logoutTitle: '退出登录',
  logoutQuestion: '您要退出登录吗？',
  logoutQuestionFrom: (app: string) => `${app} 请求让您退出登录。您要退出登录吗？`,
  logoutYes: '是，退出登录',
  logoutNo: '否，保持登录',
  loggedOut: '您已退出登录。',
};

/** Every text of the sign-in, consent, password and error pages, in both languages. */
const TEXTS: Record<Locale, Texts> = { en: EN, 'zh-Hans': ZH_HANS };

export function textsFor(locale: Locale): Texts {
  return TEXTS[locale];
}
