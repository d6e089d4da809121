// Number and date formatting used across screens: prices (2 decimals in dollars; a store's
// own currency has its own minor units), whole-amount totals, counts,
// readable dates and relative times.
//
// Money, counts and calendar dates are written here rather than by Intl: a page's first Intl
// call starts the browser's ICU locale data, 15-70 ms on the main thread of this machine
// (four times that on Lighthouse's slow phone), and every signed-in first screen showed a
// price or a count. They give exactly what Intl's en-US formats give
// (tests/unit/format.test.ts compares them on random values). That fast path is for US
// dollars written for en-US, the default store; any other currency or locale is written by
// Intl.NumberFormat, one per currency, locale and precision, kept.
// Times of day stay with Intl, created on first use.
import { DEFAULT_MONEY, type MoneyFormat } from '../../shared/money-format';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * |value| with `decimals` fraction digits, rounded half away from zero on its shortest
 * decimal form, as Intl does (toFixed rounds the binary value: 1.005 gives 1.00, Intl 1.01).
 */
function fixed(value: number, decimals: number): { whole: string; fraction: string } {
  const [whole = '0', fraction = ''] = String(Math.abs(value)).split('.');
  const kept = fraction.slice(0, decimals).padEnd(decimals, '0');
  const roundUp = (fraction[decimals] ?? '0') >= '5';
  const digits = (BigInt(whole + kept) + (roundUp ? 1n : 0n)).toString().padStart(decimals + 1, '0');
  return decimals === 0
    ? { whole: digits, fraction: '' }
    : { whole: digits.slice(0, -decimals), fraction: digits.slice(-decimals) };
}

function dollars(value: number, decimals: number): string {
  // No store prices things beyond 1e21 or below 1e-6 (exponent form); Intl has the last word there.
  if (!Number.isFinite(value) || String(value).includes('e')) {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(value);
  }
  const { whole, fraction } = fixed(value, decimals);
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}$${grouped(whole)}${fraction ? `.${fraction}` : ''}`;
}

const isDefaultMoney = (money: MoneyFormat) =>
  money.currency === DEFAULT_MONEY.currency && money.locale === DEFAULT_MONEY.locale;

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Intl's currency format: the currency's own minor units (JPY has none), or none at all for `whole`. */
function intlMoney(money: MoneyFormat, whole: boolean): Intl.NumberFormat {
  const key = `${money.currency} ${money.locale} ${whole ? 'whole' : 'minor'}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
    format = new Intl.NumberFormat(money.locale, { style: 'currency', currency: money.currency, ...digits });
    moneyFormats.set(key, format);
  }
  return format;
}

/** A price in the store's currency: $12.50, 12,50 €, ￥1,250. */
export function formatPrice(value: number, money: MoneyFormat): string {
  return isDefaultMoney(money) ? dollars(value, 2) : intlMoney(money, false).format(value);
}

/** A total in whole units of the store's currency: $1,235, 1 235 €. */
export function formatWholeMoney(value: number, money: MoneyFormat): string {
  return isDefaultMoney(money) ? dollars(value, 0) : intlMoney(money, true).format(value);
}

/** The currency's symbol as the locale writes it ($, €, £, CHF), for a price field's label. */
export function currencySymbol(money: MoneyFormat): string {
  if (isDefaultMoney(money)) return '$';
  return (
    intlMoney(money, false)
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? money.currency
  );
}

/** Decimals a price has in the currency (2 for dollars and euros, 0 for yen), for a price field's step. */
export function currencyDecimals(money: MoneyFormat): number {
  return isDefaultMoney(money) ? 2 : (intlMoney(money, false).resolvedOptions().maximumFractionDigits ?? 2);
}

/** A count with thousands separators: 12,345. */
export function formatCount(value: number): string {
  if (!Number.isInteger(value)) return new Intl.NumberFormat('en-US').format(value);
  return `${value < 0 || Object.is(value, -0) ? '-' : ''}${grouped(String(Math.abs(value)))}`;
}

let dateTime: Intl.DateTimeFormat | null = null;

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  dateTime ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
  return dateTime.format(date);
}

/** A YYYY-MM-DD calendar date, shown without shifting by time zone: Nov 5, 2026. */
export function formatDate(ymd: string | null | undefined): string {
  if (!ymd) return '—';
  const date = new Date(`${ymd.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return '—';
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 30) return `${days} d ago`;
  return formatDateTime(iso);
}

let dateTimeSeconds: Intl.DateTimeFormat | null = null;

/**
 * A moment to the second, written the way formatDateTime writes one (Jul 14, 2026, 3:02:45
 * PM): for the store as of a moment, which is picked to the second. Every date on screen is
 * written by this file's functions, in one style.
 */
export function formatDateTimeSeconds(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  dateTimeSeconds ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
  return dateTimeSeconds.format(date);
}
