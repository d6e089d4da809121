// Sends a count, or keeps it in the offline outbox (client/offline/outbox.ts) when there is
// no signal: it carries the moment it was counted (countedAt) and its idempotency key, so a
// replay hours later is compared with the stock of that moment, and applied once. It names
// where it was counted, so a count of the back room never lands on the shelf.
import type { StocktakeCount, SubmitCountBody } from '../../../shared/stocktake';
import { api } from '../../lib/api-client';
import { outbox, sendOrQueue } from '../../offline/outbox';

export type CountOutcome = { queued: false; count: StocktakeCount } | { queued: true };

export const countsPath = (sessionId: string) => `/stocktakes/${encodeURIComponent(sessionId)}/counts`;

export async function submitCount(
  sessionId: string,
  item: { itemId: string; name: string; locationId?: string },
  counted: number,
  now = new Date(),
): Promise<CountOutcome> {
  const body: SubmitCountBody = {
    itemId: item.itemId,
    ...(item.locationId ? { locationId: item.locationId } : {}),
    counted,
    countedAt: now.toISOString(),
  };
  const idempotencyKey = crypto.randomUUID();
  // The outbox serves the signed-in user once the shell has started it; before that, a plain call.
  if (!outbox.getState().uid) {
    return { queued: false, count: await api.post<StocktakeCount>(countsPath(sessionId), body, { idempotencyKey }) };
  }
  const result = await sendOrQueue<StocktakeCount>({
    kind: 'count',
    method: 'POST',
    path: countsPath(sessionId),
    body,
    idempotencyKey,
    label: `Count of ${item.name}: ${counted}`,
    // No itemId: a count moves no stock until a manager approves it, so the item's own screens
    // have nothing pending to show (the count page marks its waiting counts itself).
    currentPath: `/inventory/${encodeURIComponent(item.itemId)}`,
  });
  return result.queued ? { queued: true } : { queued: false, count: result.data };
}
