import { localeForTag, preferredLocale, type Locale } from '@stdreg/contracts';

/** The page language: the first supported tag of `ui_locales` (space-separated), else Accept-Language's best, else English. */
export function chooseLocale(uiLocales: string | undefined, acceptLanguage: string | undefined): Locale {
  const fromUiLocales = (uiLocales ?? '')
    .split(/\s+/)
    .map(localeForTag)
    .find((locale) => locale !== null);
  return fromUiLocales ?? preferredLocale(acceptLanguage) ?? 'en';
}
