export const LOCALES = ['en', 'zh-Hans'] as const;
export type Locale = (typeof LOCALES)[number];

/** A localized value: both locales, always. */
export type Localized<T = string> = { [L in Locale]: T };

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}
