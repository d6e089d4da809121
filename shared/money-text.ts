// Money as a sentence writes it: a price in a store's currency, written for its locale
// ("$4.50", "4,50 €", "￥450"), by Intl.NumberFormat with the currency's own minor units.
// Used where the server words a change (shared/change-sentence.ts); one formatter per
// currency and locale, kept, since a page of sentences writes many prices in few formats.
import type { MoneyFormat } from './money-format.js';

const formats = new Map<string, Intl.NumberFormat>();

/** `value` (a price, as events carry it: a number or its text) in `money`'s currency and locale. */
export function moneyText(value: unknown, money: MoneyFormat): string {
  const key = `${money.currency} ${money.locale}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(money.locale, { style: 'currency', currency: money.currency });
    formats.set(key, format);
  }
  return format.format(Number(value));
}
