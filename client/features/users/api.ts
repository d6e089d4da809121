// Users page calls: accounts, roles (for names and the role picker), sites (for roles per
// site), and the manager's actions on an account.
import type { CreateUserBody, Role, User } from '../../../shared/accounts';
import type { SiteRoles } from '../../../shared/site-roles';
import type { Site } from '../../../shared/sites';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

export type UserAction = 'disable' | 'enable' | 'manager-request/approve' | 'manager-request/reject';

export const usersApi = {
  list: () => api.get<User[]>('/users'),
  roles: () => api.get<Role[]>('/roles'),
  create: (body: CreateUserBody) => api.post<User>('/users', body),
  changeRole: (id: string, role: string) => api.put<User>(`/users/${enc(id)}/role`, { role }),
  act: (id: string, action: UserAction) => api.post<User>(`/users/${enc(id)}/${action}`),
  /** The sites the manager may see (the Sites dialog's rows, the cards' names). */
  sites: () => api.get<Site[]>('/sites'),
  setSiteRoles: (id: string, siteRoles: SiteRoles) => api.put<User>(`/users/${enc(id)}/site-roles`, { siteRoles }),
};
