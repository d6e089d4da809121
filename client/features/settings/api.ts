// Settings calls: the store settings and the roles (for the permission matrix).
import type { Role, Settings } from '../../../shared/accounts';
import { api } from '../../lib/api-client';

export const settingsApi = {
  read: () => api.get<Settings>('/settings'),
  save: (changes: Partial<Settings>) => api.put<Settings>('/settings', changes),
  roles: () => api.get<Role[]>('/roles'),
};
