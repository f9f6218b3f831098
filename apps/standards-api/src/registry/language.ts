import { LOCALES, isLocale, preferredLocale, type Locale } from '@stdreg/contracts';

const acceptLanguageCache = new Map<string, Locale | null>();
const ACCEPT_LANGUAGE_CACHE_LIMIT = 512;

/** `?lang=` wins; otherwise the best supported language of Accept-Language; otherwise none (both locales). */
export function negotiateLocale(lang: Locale | undefined, acceptLanguage: string | undefined): Locale | null {
  if (lang) return lang;
  if (!acceptLanguage) return null;
  const cached = acceptLanguageCache.get(acceptLanguage);
  if (cached !== undefined) return cached;
  const locale = preferredLocale(acceptLanguage);
  if (acceptLanguageCache.size >= ACCEPT_LANGUAGE_CACHE_LIMIT) acceptLanguageCache.clear();
  acceptLanguageCache.set(acceptLanguage, locale);
  return locale;
}

function isLocalized(value: object): value is Record<Locale, unknown> {
  const keys = Object.keys(value);
  return keys.length === LOCALES.length && keys.every(isLocale);
}

/**
 * The flattened `text` view: the same structure holding only localized values, each replaced
 * by its text in `locale`; arrays keep their positions, so `text.clauses[2]` belongs to `clauses[2]`.
 */
export function textView(value: unknown, locale: Locale): unknown {
  if (Array.isArray(value)) {
    const mapped = value.map((item) => textView(item, locale));
    return mapped.some((item) => item !== undefined) ? mapped.map((item) => item ?? null) : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (isLocalized(value)) return value[locale];
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const flattened = textView(child, locale);
    if (flattened !== undefined) result[key] = flattened;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

export function withTextView<T extends object>(value: T, locale: Locale | null): T | (T & { text: unknown }) {
  return locale ? { ...value, text: textView(value, locale) } : value;
}
