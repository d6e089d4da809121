// What the Settings screen offers for the store's money format: every currency the browser
// knows (the server checks against the same kind of list, shared/money-format.ts), and the
// locales stores most often write prices for, each with its English name. The store's own
// choice is always offered, listed here or not.
const COMMON_LOCALES = [
  'ar-AE',
  'ar-SA',
  'cs-CZ',
  'da-DK',
  'de-AT',
  'de-CH',
  'de-DE',
  'el-GR',
  'en-AU',
  'en-CA',
  'en-GB',
  'en-IE',
  'en-IN',
  'en-NZ',
  'en-SG',
  'en-US',
  'en-ZA',
  'es-AR',
  'es-CO',
  'es-ES',
  'es-MX',
  'fi-FI',
  'fil-PH',
  'fr-BE',
  'fr-CA',
  'fr-CH',
  'fr-FR',
  'he-IL',
  'hi-IN',
  'hu-HU',
  'id-ID',
  'it-IT',
  'ja-JP',
  'ko-KR',
  'ms-MY',
  'nb-NO',
  'nl-BE',
  'nl-NL',
  'pl-PL',
  'pt-BR',
  'pt-PT',
  'ro-RO',
  'ru-RU',
  'sv-SE',
  'th-TH',
  'tr-TR',
  'uk-UA',
  'vi-VN',
  'zh-CN',
  'zh-HK',
  'zh-TW',
];

export interface Choice {
  value: string;
  label: string;
}

function named(
  values: string[],
  type: 'currency' | 'language',
  label: (value: string, name: string) => string,
): Choice[] {
  const names = new Intl.DisplayNames(['en'], { type });
  const nameOf = (value: string) => {
    try {
      return names.of(value) ?? value;
    } catch {
      return value;
    }
  };
  return values.map((value) => ({ value, label: label(value, nameOf(value)) }));
}

/** 'EUR · Euro', by code. */
export function currencyChoices(current: string): Choice[] {
  const codes = new Set(Intl.supportedValuesOf('currency'));
  codes.add(current);
  return named([...codes].sort(), 'currency', (code, name) => (name === code ? code : `${code} · ${name}`));
}

/** 'French (France) · fr-FR', by name. */
export function localeChoices(current: string): Choice[] {
  const tags = new Set(COMMON_LOCALES);
  tags.add(current);
  return named([...tags], 'language', (tag, name) => `${name} · ${tag}`).sort((a, b) =>
    a.label.localeCompare(b.label, 'en'),
  );
}
