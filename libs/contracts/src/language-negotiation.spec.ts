import { localeForTag, preferredLocale } from './language-negotiation';

describe('localeForTag', () => {
  // Tags from RFC 5646 Appendix A and CLDR's likely subtags for Chinese regions.
  it.each([
    ['en', 'en'],
    ['en-US', 'en'],
    ['EN-gb', 'en'],
    ['en-US-x-twain', 'en'],
    ['zh', 'zh-Hans'],
    ['zh-Hans', 'zh-Hans'],
    ['ZH-HANS', 'zh-Hans'],
    ['zh-Hans-CN', 'zh-Hans'],
    ['zh-Hans-TW', 'zh-Hans'],
    ['zh-CN', 'zh-Hans'],
    ['zh-SG', 'zh-Hans'],
    ['zh-MY', 'zh-Hans'],
    ['zh-cmn-Hans-CN', 'zh-Hans'],
    ['cmn-Hans-CN', 'zh-Hans'],
    ['zh-Hant', null],
    ['zh-TW', null],
    ['zh-HK', null],
    ['zh-MO', null],
    ['zh-Hant-CN', null],
    ['zh-yue-HK', null],
    ['yue-HK', null],
    ['zh-Latn-pinyin', null],
    ['de-CH-1901', null],
    ['i-enochian', null],
    ['x-whatever', null],
    ['*', null],
    ['', null],
    ['en_US', null],
    ['zh-Hans;', null],
  ])('%j asks for %j', (tag, locale) => {
    expect(localeForTag(tag)).toBe(locale);
  });
});

describe('preferredLocale', () => {
  it.each([
    // RFC 9110 §12.5.4's example, and the same with the Danish dropped.
    ['da, en-gb;q=0.8, en;q=0.7', 'en'],
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'en'],
    ['zh-CN;q=0.9, en-GB', 'en'],
    ['en;q=0.9, zh;q=0.9', 'en'],
    ['zh;q=0.9, en;q=0.9', 'zh-Hans'],
    // The weight's name is case-insensitive: Q=0 refuses as q=0 does.
    ['zh;Q=0, en;q=0.5', 'en'],
    ['zh-Hans;q=0, en;q=0.1', 'en'],
    ['en;q=0', null],
    // `*` stands for the languages no entry names.
    ['en;q=0, *', 'zh-Hans'],
    ['zh-Hans;q=0, *;q=0.3', 'en'],
    ['en;q=0.5, *;q=0.8', 'zh-Hans'],
    ['en;q=0.5, *;q=0.5', 'en'],
    ['*', null],
    ['*;q=0', null],
    // Traditional Chinese is neither locale; a later, simplified or English entry still counts.
    ['zh-TW', null],
    ['zh-TW, zh;q=0.9, en;q=0.8', 'zh-Hans'],
    ['zh-Hant, en;q=0.5', 'en'],
    // Malformed weights drop their entry; malformed fields answer as no preference.
    ['en;q=abc, zh;q=0.1', 'zh-Hans'],
    ['en;q=1.5, zh;q=0.2', 'zh-Hans'],
    ['en;q=-1, zh;q=0.2', 'zh-Hans'],
    ['en;q=, zh;q=0.2', 'zh-Hans'],
    ['en;foo=bar;q=0.1, zh;q=0.5', 'zh-Hans'],
    ['en ; q=0.5 , zh ;q=0.6', 'zh-Hans'],
    [';;;,,', null],
    [' , zh', 'zh-Hans'],
    ['', null],
    ['\u00e9n, zh-\u0048ans', 'zh-Hans'],
  ])('%j prefers %j', (header, locale) => {
    expect(preferredLocale(header)).toBe(locale);
  });

  it('reads the first twenty entries of a long field, and no more', () => {
    const filler = Array.from({ length: 19 }, (_, i) => `x-filler${i}`);
    expect(preferredLocale([...filler, 'zh'].join(', '))).toBe('zh-Hans');
    expect(preferredLocale([...filler, 'fr', 'zh'].join(', '))).toBeNull();
  });
});
