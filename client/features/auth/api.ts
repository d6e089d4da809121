// Auth calls to our own server: POST /api/session after every sign-in (records the user,
// applies the role chosen at sign-up, returns the permissions to show and hide by).
import type { SessionBody, SessionResponse } from '../../../shared/accounts';
import { api } from '../../lib/api-client';

export function startSession(body: SessionBody): Promise<SessionResponse> {
  return api.post<SessionResponse>('/session', body);
}
