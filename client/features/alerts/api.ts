// Alert calls: the low-stock list with my dismissals, dismiss and restore, my alert
// choices (/api/alerts/settings) and the profile's browser-notification preference.
import type { AlertPreferences, Profile } from '../../../shared/accounts';
import type { AlertSettings, AlertsResponse, LowStockAlert } from '../../../shared/alerts';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

export const alertsApi = {
  list: async () => (await api.get<AlertsResponse>('/alerts')).alerts,
  /** siteId: the item's alert at that site (an alert listed with one). */
  dismiss: (itemId: string, siteId?: string | null) =>
    api.post<LowStockAlert>(`/alerts/${enc(itemId)}/dismiss`, siteId ? { siteId } : undefined),
  restore: (itemId: string, siteId?: string | null) =>
    api.post<LowStockAlert>(`/alerts/${enc(itemId)}/restore`, siteId ? { siteId } : undefined),
  settings: () => api.get<AlertSettings>('/alerts/settings'),
  saveSettings: (settings: AlertSettings) => api.put<AlertSettings>('/alerts/settings', settings),
  preferences: async () => (await api.get<Profile>('/profile')).preferences,
  savePreferences: (preferences: AlertPreferences) => api.put<AlertPreferences>('/profile/preferences', preferences),
};
