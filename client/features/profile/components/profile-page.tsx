// Profile (/profile): avatar or initial, name, email and role badge; Edit Profile saves
// name and email on the server (a new email after signing in again, confirmed by a link);
// Change Password (email-and-password accounts only, never Google or guests)
// re-authenticates first; the Danger Zone logs out.
import { useState } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { useCan } from '../../../lib/session-context';
import { profileMachine } from '../profile.machine';
import { ChangePasswordForm, type ChangePassword } from './change-password-form';
import { ProfileDetails } from './profile-details';
import { ProfileHeader } from './profile-header';
import { SignInAgainDialog } from './sign-in-again-dialog';
import '../profile.css';

export interface ProfilePageProps {
  changePassword: ChangePassword;
  /** Signs in again with the current password (Firebase re-authentication). */
  reauthenticate: (password: string) => Promise<void>;
  onLogout: () => void;
  /** Called after name or email changed, so the app's header follows. */
  onProfileSaved: () => void;
}

export function ProfilePage({ changePassword, reauthenticate, onLogout, onProfileSaved }: ProfilePageProps) {
  // Provided once: the machine must stay the same across renders.
  const [machine] = useState(() =>
    profileMachine.provide({
      actions: { profileSaved: () => onProfileSaved() },
      actors: { reauthenticate: fromPromise(({ input }) => reauthenticate(input.password)) },
    }),
  );
  const [state, send] = useMachine(machine);
  const canEdit = useCan('profile:view');
  const { profile, roles, error, saveError, reauthError, emailSentTo } = state.context;
  const signingInAgain = state.matches('confirmingPassword') || state.matches('reauthenticating');
  const user = profile?.user;
  const passwordAccount = user?.provider === 'password';

  return (
    <div className="page page-narrow profile-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Profile</h1>
          <p className="page-subtitle">Your account details</p>
        </div>
      </header>
      {state.matches('error') ? (
        <ErrorBox
          title="Failed to load your profile"
          message={error ?? 'Failed to load your profile'}
          onRetry={() => send({ type: 'RETRY' })}
        />
      ) : null}
      {state.matches('loading') ? <TruckLoader label="Loading your profile..." fullScreen={false} /> : null}
      {user ? (
        <>
          <ProfileHeader user={user} roles={roles} />
          <ProfileDetails
            key={user.name + (user.email ?? '')}
            user={user}
            canEdit={canEdit && user.provider !== 'anonymous'}
            editing={state.matches('editing') || state.matches('saving') || signingInAgain}
            saving={state.matches('saving') || signingInAgain}
            error={saveError}
            emailSentTo={emailSentTo}
            onEdit={() => send({ type: 'EDIT' })}
            onCancel={() => send({ type: 'CANCEL' })}
            onSave={(name, email) => send({ type: 'SAVE', name, email })}
          />
          {signingInAgain && user.email ? (
            <SignInAgainDialog
              email={user.email}
              busy={state.matches('reauthenticating')}
              error={reauthError}
              onConfirm={(password) => send({ type: 'CONFIRM_PASSWORD', password })}
              onCancel={() => send({ type: 'CANCEL' })}
            />
          ) : null}
          {passwordAccount ? <ChangePasswordForm changePassword={changePassword} /> : null}
          <section className="card profile-card danger-zone" aria-labelledby="danger-title">
            <header className="profile-card-header">
              <h2 id="danger-title" className="card-title">
                <Icon name="alert" size={18} /> Danger Zone
              </h2>
            </header>
            <div className="danger-zone-row">
              <p>Sign out of Stockroom on this device.</p>
              <button type="button" className="btn btn-danger" onClick={onLogout}>
                <Icon name="logout" size={16} /> Log Out
              </button>
            </div>
          </section>
        </>
      ) : null}
    </div>
  );
}
