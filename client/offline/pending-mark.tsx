// The "Pending" mark beside a value that includes changes still waiting in the outbox,
// and the hook that gives a screen the quantity to show with them applied.
import { usePendingItem } from './use-outbox';
import './offline.css';

export function PendingMark({ count }: { count: number }) {
  const title = count === 1 ? '1 change waiting to be sent' : `${count} changes waiting to be sent`;
  return (
    <span className="badge pending-mark" title={title} data-testid="pending-mark">
      Pending
    </span>
  );
}

/** The quantity with the waiting stock changes applied, and how many changes wait (0: none). */
export function usePendingQuantity(itemId: string, quantity: number): { quantity: number; waiting: number } {
  const pending = usePendingItem(itemId);
  return { quantity: quantity + (pending?.delta ?? 0), waiting: pending?.count ?? 0 };
}

/** A quantity with the waiting stock changes applied, marked "Pending" while any wait. */
export function PendingQuantity({ itemId, quantity }: { itemId: string; quantity: number }) {
  const shown = usePendingQuantity(itemId, quantity);
  return (
    <>
      {shown.quantity}
      {shown.waiting ? <PendingMark count={shown.waiting} /> : null}
    </>
  );
}
