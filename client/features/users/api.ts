// Users page calls: accounts, roles (for names and the role picker), and the manager's
// actions on an account.
import type { CreateUserBody, Role, User } from '../../../shared/accounts';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

export type UserAction = 'disable' | 'enable' | 'manager-request/approve' | 'manager-request/reject';

export const usersApi = {
  list: () => api.get<User[]>('/users'),
  roles: () => api.get<Role[]>('/roles'),
  create: (body: CreateUserBody) => api.post<User>('/users', body),
  changeRole: (id: string, role: string) => api.put<User>(`/users/${enc(id)}/role`, { role }),
  act: (id: string, action: UserAction) => api.post<User>(`/users/${enc(id)}/${action}`),
};
