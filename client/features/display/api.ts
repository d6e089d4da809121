// The wall display's one call: everything it shows, computed by the server.
import type { DisplaySnapshot } from '../../../shared/dashboard';
import { api } from '../../lib/api-client';

export const displayApi = {
  snapshot: () => api.get<DisplaySnapshot>('/dashboard/display'),
};
