// The store's money format: the currency every price and value is in (an
// ISO 4217 code) and the locale it is written for (a BCP 47 tag: decimal mark, grouping,
// where the symbol goes). Prices are plain numbers in that currency: choosing another
// currency relabels them, it converts nothing. Checked here, with the JavaScript engine's
// own lists, so the server refuses what a browser could not format.

export interface MoneyFormat {
  currency: string;
  locale: string;
}

/** What a store that never chose writes: what every screen showed before the setting existed. */
export const DEFAULT_MONEY: MoneyFormat = { currency: 'USD', locale: 'en-US' };

export type Checked = { ok: true; value: string } | { ok: false; error: string };

let currencies: Set<string> | null = null;

/** An ISO 4217 code the engine knows (Intl.supportedValuesOf), upper-cased: 'eur' is EUR. */
export function checkCurrency(input: string): Checked {
  const code = input.trim().toUpperCase();
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  if (!/^[A-Z]{3}$/.test(code) || !currencies.has(code)) {
    return { ok: false, error: `Unknown currency "${input.trim()}": use an ISO 4217 code such as USD, EUR or GBP` };
  }
  return { ok: true, value: code };
}

/**
 * A well-formed BCP 47 tag whose language the engine can format numbers for, in its
 * canonical spelling ('fr-fr' is fr-FR).
 */
export function checkLocale(input: string): Checked {
  const tag = input.trim();
  const refused: Checked = {
    ok: false,
    error: `Unknown locale "${tag}": use a BCP 47 language tag such as en-US, fr-FR or de-DE`,
  };
  let canonical: string;
  try {
    [canonical = ''] = Intl.getCanonicalLocales(tag);
  } catch {
    return refused;
  }
  if (!canonical || Intl.NumberFormat.supportedLocalesOf([canonical]).length === 0) return refused;
  return { ok: true, value: canonical };
}
