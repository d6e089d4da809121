// /profile wired to the session: Change Password and signing in again through Firebase, Log Out through the auth
// machine, and a session refresh after an edit so the header shows the new name.
import { ProfilePage } from '../features/profile/pages';
import { changePassword } from './change-password';
import { reauthenticate } from './reauthenticate';
import { authActor } from './session';

const logout = () => authActor.send({ type: 'LOGOUT' });
const refreshSession = () => authActor.send({ type: 'REFRESH_SESSION' });

export function ProfileRoute() {
  return (
    <ProfilePage
      changePassword={changePassword}
      reauthenticate={reauthenticate}
      onLogout={logout}
      onProfileSaved={refreshSession}
    />
  );
}
