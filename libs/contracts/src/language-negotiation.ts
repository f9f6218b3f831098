// How every service reads a language preference (Accept-Language, ui_locales, a page's ?lang=): one rule, so
// a caller gets the same language from the registry, the sign-in pages and the password pages.
import { LOCALES, type Locale } from './locale';

/** The most entries of an Accept-Language field read; the rest are ignored (browsers send a handful). */
const MAX_RANGES = 20;
/** RFC 9110 §12.4.2 weight: `q=` (case-insensitive, as ABNF literals are) and a qvalue from 0 to 1. */
const WEIGHT = /^q=(0(?:\.[0-9]*)?|1(?:\.0*)?)$/i;
/** RFC 5646 extlang form (zh-cmn-Hans-CN): the extlang is the language (cmn-Hans-CN). */
const EXTLANG = /^[a-z]{2,3}-([a-z]{3})(?=-|$)/i;

/**
 * The registry locale a BCP 47 tag asks for, by CLDR's likely subtags: English in any region; Chinese whose
 * script is, or is most likely, simplified (zh, zh-CN, zh-SG, zh-MY, zh-Hans-*, cmn-Hans). Traditional
 * Chinese (zh-TW, zh-HK, zh-Hant) and anything malformed ask for neither.
 */
export function localeForTag(tag: string): Locale | null {
  const trimmed = tag.trim();
  if (!/^[a-z0-9-]{1,64}$/i.test(trimmed)) return null;
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(trimmed.replace(EXTLANG, '$1')).maximize();
  } catch {
    return null;
  }
  if (locale.language === 'en') return 'en';
  if (locale.language === 'zh' && locale.script === 'Hans') return 'zh-Hans';
  return null;
}

/**
 * The best registry locale of an Accept-Language field (RFC 9110 §12.5.4): the highest weight wins, a named
 * language before `*` and then the first listed; q=0 means "not this one"; `*` stands for a locale no entry
 * names. A field that prefers both equally (`*` alone), or neither, gives null. An entry with a malformed
 * weight is ignored.
 */
export function preferredLocale(acceptLanguage: string | undefined): Locale | null {
  if (!acceptLanguage) return null;
  const named = new Map<Locale, { q: number; position: number }>();
  let wildcard = 0;
  acceptLanguage
    .split(',')
    .slice(0, MAX_RANGES)
    .forEach((entry, position) => {
      const [range = '', ...parameters] = entry.split(';').map((part) => part.trim());
      const weight = parameters.find((parameter) => /^q=/i.test(parameter));
      const match = weight === undefined ? null : WEIGHT.exec(weight);
      if (weight !== undefined && !match) return;
      const q = match ? Number(match[1]) : 1;
      if (range === '*') {
        wildcard = Math.max(wildcard, q);
        return;
      }
      const locale = localeForTag(range);
      if (!locale) return;
      const known = named.get(locale);
      if (!known || q > known.q) named.set(locale, { q, position: known?.position ?? position });
    });
  const candidates = LOCALES.map((locale) => {
    const entry = named.get(locale);
    return entry ? { locale, q: entry.q, named: 1, position: entry.position } : { locale, q: wildcard, named: 0, position: Infinity };
  });
  candidates.sort((a, b) => b.q - a.q || b.named - a.named || a.position - b.position);
  const [best, next] = candidates;
  if (!best || best.q <= 0) return null;
  if (next && next.q === best.q && next.named === 0 && best.named === 0) return null;
  return best.locale;
}
