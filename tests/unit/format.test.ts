// client/lib/format.ts writes US-dollar money, counts and calendar dates without Intl (the
// first Intl call of a page costs the main thread ICU's start-up): each must read exactly as
// Intl's en-US format reads, on random values. A store with another currency or locale
// gets Intl's own format for them: 12,50 € in fr-FR.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currencyDecimals,
  currencySymbol,
  formatCount,
  formatDate,
  formatPrice,
  formatWholeMoney,
} from '../../client/lib/format';
import { DEFAULT_MONEY, type MoneyFormat } from '../../shared/money-format';

const USD = DEFAULT_MONEY;
const EUR_FR: MoneyFormat = { currency: 'EUR', locale: 'fr-FR' };
/** The spaces Intl writes in fr-FR: no-break before the symbol, narrow no-break between thousands. */
const NBSP = '\u00a0';
const NNBSP = '\u202f';

const cents = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const whole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const count = new Intl.NumberFormat('en-US');
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

const amounts = fc.oneof(
  fc.double({ min: -1e12, max: 1e12, noNaN: true }),
  fc.integer({ min: -10_000_000, max: 10_000_000 }).map((c) => c / 100),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((c) => c / 1000),
  fc.constantFrom(0, -0, 0.5, 1.005, 2.675, 1234.5, 999.995, 0.004999, 1e21, -1e21, 5e-7),
);

describe('formatting without Intl', () => {
  it('prices read as Intl en-US currency with 2 decimals', () => {
    fc.assert(
      fc.property(amounts, (value) => {
        expect(formatPrice(value, USD)).toBe(cents.format(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('whole dollars read as Intl en-US currency with no decimals', () => {
    fc.assert(
      fc.property(amounts, (value) => {
        expect(formatWholeMoney(value, USD)).toBe(whole.format(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('counts read as Intl en-US numbers', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, -0, 1000, 999_999)), (value) => {
        expect(formatCount(value)).toBe(count.format(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('calendar dates read as Intl en-US medium dates in UTC', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T00:00:00Z'), noInvalidDate: true }),
        (date) => {
          const ymd = date.toISOString().slice(0, 10);
          expect(formatDate(ymd)).toBe(day.format(new Date(`${ymd}T00:00:00Z`)));
        },
      ),
      { numRuns: 2000 },
    );
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });
});

describe("the store's own currency and locale", () => {
  it('writes euros as France does: 12,50 €, 1 234,50 €, and whole euros without decimals', () => {
    expect(formatPrice(12.5, EUR_FR)).toBe(`12,50${NBSP}€`);
    expect(formatPrice(1234.5, EUR_FR)).toBe(`1${NNBSP}234,50${NBSP}€`);
    expect(formatPrice(-3, EUR_FR)).toBe(`-3,00${NBSP}€`);
    expect(formatWholeMoney(1234.5, EUR_FR)).toBe(`1${NNBSP}235${NBSP}€`);
    expect(currencySymbol(EUR_FR)).toBe('€');
    expect(currencyDecimals(EUR_FR)).toBe(2);
  });

  it('keeps the currency and the locale apart: the same euros read otherwise in Germany and Ireland, dollars in France', () => {
    // One Intl format is kept per currency, locale and precision: none may answer for another.
    expect(formatPrice(1234.5, { currency: 'EUR', locale: 'de-DE' })).toBe(`1.234,50${NBSP}€`);
    expect(formatPrice(1234.5, { currency: 'EUR', locale: 'en-IE' })).toBe('€1,234.50');
    expect(formatPrice(1234.5, { currency: 'USD', locale: 'fr-FR' })).toBe(`1${NNBSP}234,50${NBSP}$US`);
    expect(formatPrice(1234.5, { currency: 'GBP', locale: 'en-US' })).toBe('£1,234.50');
    expect(formatPrice(1234.5, EUR_FR)).toBe(`1${NNBSP}234,50${NBSP}€`);
  });

  it('gives a currency without minor units none: yen are whole', () => {
    const yen: MoneyFormat = { currency: 'JPY', locale: 'ja-JP' };
    expect(formatPrice(1250, yen)).toBe('￥1,250');
    expect(currencyDecimals(yen)).toBe(0);
    expect(currencySymbol(yen)).toBe('￥');
  });

  it('reads as Intl for any currency and locale, on random values', () => {
    const formats: MoneyFormat[] = [
      EUR_FR,
      { currency: 'CHF', locale: 'de-CH' },
      { currency: 'INR', locale: 'hi-IN' },
      { currency: 'BRL', locale: 'pt-BR' },
    ];
    fc.assert(
      fc.property(amounts, fc.constantFrom(...formats), (value, money) => {
        const intl = new Intl.NumberFormat(money.locale, { style: 'currency', currency: money.currency });
        expect(formatPrice(value, money)).toBe(intl.format(value));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the hand-written dollars for the default store: $ and 2 decimals', () => {
    expect(formatPrice(12.5, USD)).toBe('$12.50');
    expect(formatWholeMoney(1234.5, USD)).toBe('$1,235');
    expect(currencySymbol(USD)).toBe('$');
    expect(currencyDecimals(USD)).toBe(2);
  });
});
