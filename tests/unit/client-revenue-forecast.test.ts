// The revenue forecast's basis: the pace of the last 30 days, or of the days since the first
// stock in a younger store, and why there is no forecast while a store has under a week of sales.
import { describe, expect, it } from 'vitest';
import { forecastBasis, forecastPending } from '../../client/features/dashboard/components/revenue-card.js';
import { forecastBasisDays } from '../../server/dashboard/dashboard-queries.js';

describe('revenue forecast basis', () => {
  const now = new Date('2026-03-31T15:00:00Z');
  it('takes the pace of the last 30 days, or of the days since the first stock in a younger store', () => {
    expect(forecastBasisDays(null, now)).toBe(30);
    expect(forecastBasisDays('2026-03-31', now)).toBe(1);
    expect(forecastBasisDays('2026-03-22', now)).toBe(10);
    expect(forecastBasisDays('2025-01-01', now)).toBe(30);
    expect(forecastBasis(30)).toBe('At the pace of the last 30 days');
    expect(forecastBasis(1)).toBe("At the pace of the store's first day");
    expect(forecastBasis(10)).toBe("At the pace of the store's first 10 days");
  });

  it('says why there is no forecast while the store has under a week of sales', () => {
    expect(forecastPending(1)).toBe("A forecast needs 7 days of sales; today is the store's first.");
    expect(forecastPending(3)).toBe('A forecast needs 7 days of sales; this is day 3 of 7.');
  });
});
