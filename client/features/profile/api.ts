// Profile calls: my account (name, email, role) and its edits (a new email answers where its
// confirmation link went); roles for a custom role's name.
import type { Profile, ProfileUpdate, Role } from '../../../shared/accounts';
import { api } from '../../lib/api-client';

export const profileApi = {
  read: () => api.get<Profile>('/profile'),
  update: (changes: { name?: string; email?: string }) => api.put<ProfileUpdate>('/profile', changes),
  roles: () => api.get<Role[]>('/roles'),
};
