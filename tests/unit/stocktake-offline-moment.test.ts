// An adjustment sent from the offline outbox says when it was made: a stocktake takes
// an offline sale made before a count as already counted, though it reaches the server later.
import { describe, expect, it } from 'vitest';
import { bodyToSend, withMoment } from '../../client/offline/outbox.js';
import type { OutboxRequest } from '../../client/offline/outbox-db.js';

const made = Date.UTC(2026, 0, 1, 9, 55);
const sale: OutboxRequest = {
  kind: 'adjust',
  method: 'POST',
  path: '/inventory/i/adjust',
  body: { delta: -2, reason: 'sale' },
  label: 'Sold 2',
};

describe('the moment an outbox adjustment was made', () => {
  it('is stamped once, when the change is made, and sent as stamped however late', () => {
    const stamped = withMoment(sale, made);
    expect(stamped.body).toEqual({ delta: -2, reason: 'sale', occurredAt: '2026-01-01T09:55:00.000Z' });
    // Stamped once: a retry or replay of the same Idempotency-Key sends the very same body.
    expect(withMoment(stamped, made + 60_000)).toBe(stamped);
    expect(bodyToSend(stamped, made + 35 * 60_000)).toEqual(stamped.body);
    expect(bodyToSend(stamped, made + 6 * 86_400_000)).toEqual(stamped.body);
  });

  it('leaves counts and edits alone', () => {
    const count: OutboxRequest = { ...sale, kind: 'count', body: { itemId: 'i', counted: 8, countedAt: 'x' } };
    const edit: OutboxRequest = { ...sale, kind: 'edit', body: { price: 2 } };
    expect(withMoment(count, made)).toBe(count);
    expect(withMoment(edit, made)).toBe(edit);
    expect(bodyToSend(edit, made)).toEqual({ price: 2 });
  });

  it('sends a change that waited more than a week as made now (the server keeps moments for a week)', () => {
    const stamped = withMoment(sale, made);
    expect(bodyToSend(stamped, made + 8 * 86_400_000)).toEqual({ delta: -2, reason: 'sale' });
  });
});
