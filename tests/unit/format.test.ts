// client/lib/format.ts writes money, counts and calendar dates without Intl (the first Intl
// call of a page costs the main thread ICU's start-up): each must read exactly as Intl's
// en-US format reads, on random values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDollars, formatPrice } from '../../client/lib/format';

const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
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
    fc.assert(fc.property(amounts, (value) => {
      expect(formatPrice(value)).toBe(cents.format(value));
    }), { numRuns: 3000 });
  });

  it('whole dollars read as Intl en-US currency with no decimals', () => {
    fc.assert(fc.property(amounts, (value) => {
      expect(formatDollars(value)).toBe(whole.format(value));
    }), { numRuns: 3000 });
  });

  it('counts read as Intl en-US numbers', () => {
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, -0, 1000, 999_999)), (value) => {
      expect(formatCount(value)).toBe(count.format(value));
    }), { numRuns: 2000 });
  });

  it('calendar dates read as Intl en-US medium dates in UTC', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-12-31T00:00:00Z'), noInvalidDate: true }), (date) => {
        const ymd = date.toISOString().slice(0, 10);
        expect(formatDate(ymd)).toBe(day.format(new Date(`${ymd}T00:00:00Z`)));
      }),
      { numRuns: 2000 },
    );
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });
});
