// Role Management calls: list, create, edit and delete custom roles.
import type { Role, RoleBody } from '../../../shared/accounts';
import { api } from '../../lib/api-client';

const enc = encodeURIComponent;

export const rolesApi = {
  list: () => api.get<Role[]>('/roles'),
  create: (body: RoleBody) => api.post<Role>('/roles', body),
  update: (id: string, body: RoleBody) => api.put<Role>(`/roles/${enc(id)}`, body),
  remove: (id: string) => api.delete(`/roles/${enc(id)}`),
};
