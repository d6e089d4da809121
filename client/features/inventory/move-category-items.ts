// Moves every item of one category into another, so the emptied category can be deleted.
// There is no bulk call: each item is an ordinary edit (PUT with the version read, so an
// item someone changed meanwhile is read again rather than overwritten). It always reads
// the first page, since moved items leave the category, until the category is empty.
import { ApiError } from '../../lib/api-client';
import { inventoryApi } from './api';

const BATCH = 100;
const AT_ONCE = 6;
/** Rounds that move nothing before giving up (an item that keeps changing under us). */
const MAX_IDLE_ROUNDS = 3;

export async function moveCategoryItems(fromId: string, toId: string): Promise<number> {
  let moved = 0;
  let idleRounds = 0;
  for (;;) {
    const page = await inventoryApi.categoryItems(fromId, { q: '', sort: 'name', order: 'asc', page: 1 }, BATCH);
    if (page.items.length === 0) return moved;
    let movedThisRound = 0;
    for (let start = 0; start < page.items.length; start += AT_ONCE) {
      const batch = page.items.slice(start, start + AT_ONCE);
      const results = await Promise.allSettled(
        batch.map((item) => inventoryApi.updateItem(item.id, { category_id: toId }, item.version)),
      );
      for (const result of results) {
        if (result.status === 'fulfilled') movedThisRound += 1;
        // 409: changed since we read it; 404: deleted meanwhile. The next round rereads both.
        else if (!(result.reason instanceof ApiError && (result.reason.status === 409 || result.reason.status === 404)))
          throw result.reason;
      }
    }
    moved += movedThisRound;
    idleRounds = movedThisRound === 0 ? idleRounds + 1 : 0;
    if (idleRounds >= MAX_IDLE_ROUNDS)
      throw new Error('Items kept changing while they were being moved; please try again');
  }
}
