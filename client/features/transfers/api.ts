// Transfers calls: the list and one transfer, drafting one, and its steps (ship, receive,
// write off, cancel), each answering the transfer as it left it; and what the draft form
// offers: sites, locations and the items at a location.
import type { Item } from '../../../shared/inventory';
import type { Location, Site } from '../../../shared/sites';
import type {
  CreateTransferBody,
  ReceiveTransferBody,
  Transfer,
  TransferStatus,
  TransferSummary,
  WriteOffTransferBody,
} from '../../../shared/transfers';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

/** What the list shows: a status (open: not received yet; all: every one) and a site (null: all). */
export interface TransferFilter {
  status: TransferStatus | 'open' | 'in-transit' | 'all';
  siteId: string | null;
}

/**
 * A step on a transfer, as data: what a button or a dialog asked for. `number`: the transfer's,
 * for the toast's Undo to name the step it takes back.
 */
export type TransferWrite =
  | { kind: 'ship'; number: number }
  | { kind: 'receive'; number: number; body: ReceiveTransferBody }
  | { kind: 'write-off'; number: number; body: WriteOffTransferBody }
  | { kind: 'cancel' };

function listPath(filter: TransferFilter): string {
  const query = new URLSearchParams();
  if (filter.status !== 'all') query.set('status', filter.status);
  if (filter.siteId) query.set('siteId', filter.siteId);
  const text = query.toString();
  return text ? `/transfers?${text}` : '/transfers';
}

export const transfersApi = {
  list: (filter: TransferFilter) => api.get<TransferSummary[]>(listPath(filter)),
  get: (id: string) => api.get<Transfer>(`/transfers/${enc(id)}`),
  create: (body: CreateTransferBody) => api.post<Transfer>('/transfers', body),
  /** `idempotencyKey`: kept by the caller when it offers Undo of this very write (components/undo.ts). */
  write(id: string, write: TransferWrite, idempotencyKey?: string): Promise<Transfer> {
    const path = `/transfers/${enc(id)}`;
    const options = idempotencyKey ? { idempotencyKey } : undefined;
    switch (write.kind) {
      case 'ship':
        return api.post<Transfer>(`${path}/ship`, undefined, options);
      case 'receive':
        return api.post<Transfer>(`${path}/receive`, write.body, options);
      case 'write-off':
        return api.post<Transfer>(`${path}/write-off`, write.body, options);
      case 'cancel':
        return api.post<Transfer>(`${path}/cancel`, {});
    }
  },
  sites: () => api.get<Site[]>('/sites'),
  /** Every site, those the user may not see included (roles per site): where a transfer may go. */
  allSites: () => api.get<Site[]>('/sites?scope=all'),
  locations: () => api.get<Location[]>('/locations'),
  /** The items placed at a location, each with its units there (quantityHere). */
  itemsAt: (locationId: string) => api.get<Item[]>(`/inventory?locationId=${enc(locationId)}&limit=500`),
};
