// Signing in again with the current password, for a change the server allows only right
// after a sign-in (a new email): Firebase re-authenticates, and the ID token the API client
// sends next carries the new sign-in time.
import { EmailAuthProvider, reauthenticateWithCredential } from 'firebase/auth';
import { firebaseAuth } from '../features/auth/firebase';

export async function reauthenticate(password: string): Promise<void> {
  const auth = await firebaseAuth();
  const user = auth.currentUser;
  if (!user?.email) throw Object.assign(new Error('Not signed in'), { code: 'auth/requires-recent-login' });
  await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email, password));
}
