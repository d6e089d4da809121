// Profile calls: my account (name, email, role) and its edits; roles for a custom role's name.
import type { Profile, Role } from '../../../shared/accounts';
import { api } from '../../lib/api-client';

export const profileApi = {
  read: () => api.get<Profile>('/profile'),
  update: (changes: { name?: string; email?: string }) => api.put<Profile>('/profile', changes),
  roles: () => api.get<Role[]>('/roles'),
};
