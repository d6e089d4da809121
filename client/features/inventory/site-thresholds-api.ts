// An item's thresholds per site: read them, set one site's own threshold or clear it (null).
import type { ItemSiteThresholds } from '../../../shared/site-low-stock';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

export const siteThresholdsApi = {
  forItem: (itemId: string) => api.get<ItemSiteThresholds>(`/inventory/${enc(itemId)}/site-thresholds`),
  set: (itemId: string, siteId: string, threshold: number | null) =>
    api.put<ItemSiteThresholds>(`/inventory/${enc(itemId)}/site-thresholds/${enc(siteId)}`, { threshold }),
};
