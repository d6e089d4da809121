// /activity wired to the session: Export CSV downloads with the signed-in user's ID token.
import { ActivityPage } from '../features/activity/pages';
import { idToken } from '../features/auth/firebase';

async function fetchWithToken(path: string): Promise<Response> {
  const token = await idToken(false);
  return fetch(path, {
    headers: token ? { authorization: `Bearer ${token}`, accept: 'text/csv' } : { accept: 'text/csv' },
  });
}

export function ActivityRoute() {
  return <ActivityPage fetchWithToken={fetchWithToken} />;
}
