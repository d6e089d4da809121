// Change Password for an email-and-password account: Firebase wants a fresh sign-in
// (re-authentication with the current password) before it sets a new one.
import { EmailAuthProvider, reauthenticateWithCredential, updatePassword } from 'firebase/auth';
import { firebaseAuth } from '../features/auth/firebase';

export async function changePassword(current: string, next: string): Promise<void> {
  const auth = await firebaseAuth();
  const user = auth.currentUser;
  if (!user) throw Object.assign(new Error('Not signed in'), { code: 'auth/requires-recent-login' });
  // The email may have changed on the server since this session began.
  await user.reload();
  if (!user.email) throw Object.assign(new Error('No email'), { code: 'auth/requires-recent-login' });
  await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email, current));
  await updatePassword(user, next);
}
