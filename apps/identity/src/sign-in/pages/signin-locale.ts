import type { Locale } from '@stdreg/contracts';

/** The page language: the first supported tag of `ui_locales`, else of Accept-Language, else English. */
export function chooseLocale(uiLocales: string | undefined, acceptLanguage: string | undefined): Locale {
  const fromUiLocales = (uiLocales ?? '')
    .split(/\s+/)
    .map(localeOf)
    .find((locale) => locale !== null);
  if (fromUiLocales) return fromUiLocales;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { locale: localeOf(tag ?? ''), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry): entry is { locale: Locale; q: number; index: number } => entry.locale !== null && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.locale ?? 'en';
}

function localeOf(tag: string): Locale | null {
  const lower = tag.trim().toLowerCase();
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  if (lower === 'zh' || lower === 'zh-hans' || lower.startsWith('zh-hans-') || lower === 'zh-cn' || lower === 'zh-sg') return 'zh-Hans';
  return null;
}
