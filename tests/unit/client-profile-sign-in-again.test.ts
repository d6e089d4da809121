// The Profile screen's machine with stand-in actors (no server, no Firebase): a new email the
// server refuses for want of a fresh sign-in (401) asks for the password, signs in again and
// saves the same change once more; a wrong password says so and asks again; other refusals
// and non-password accounts stay on the form with the server's message.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Profile, ProfileUpdate, Role } from '../../shared/accounts.js';
import { ApiError } from '../../client/lib/api-client.js';
import { profileMachine, savedMessage } from '../../client/features/profile/profile.machine.js';

const SIGN_IN_AGAIN = 'Sign in again to change your email or password';

function profile(provider = 'password'): Profile {
  return {
    user: {
      id: 'u1',
      name: 'Mia',
      email: 'mia@shop.test',
      role: 'staff',
      status: 'active',
      provider,
      createdAt: '2030-01-01T00:00:00Z',
      avatar: null,
      managerRequest: null,
    },
    preferences: { browserNotifications: false },
  };
}

function start(options: { provider?: string; answers: Array<ProfileUpdate | Error>; wrongPasswords?: string[] }) {
  const saves: Array<{ name?: string; email?: string }> = [];
  const passwords: string[] = [];
  const answers = [...options.answers];
  const actor = createActor(
    profileMachine.provide({
      actors: {
        load: fromPromise(async () => ({ profile: profile(options.provider), roles: [] as Role[] })),
        save: fromPromise(async ({ input }: { input: { name?: string; email?: string } }) => {
          saves.push(input);
          const answer = answers.shift()!;
          if (answer instanceof Error) throw answer;
          return answer;
        }),
        reauthenticate: fromPromise(async ({ input }: { input: { password: string } }) => {
          passwords.push(input.password);
          if (options.wrongPasswords?.includes(input.password))
            throw Object.assign(new Error('wrong'), { code: 'auth/wrong-password' });
        }),
      },
    }),
  ).start();
  return { actor, saves, passwords };
}

const sent = (email: string): ProfileUpdate => ({ ...profile(), emailVerificationSentTo: email });

describe('changing the email from the Profile screen', () => {
  it('asks for the password after a 401, signs in again and sends the same change', async () => {
    const { actor, saves, passwords } = start({
      answers: [new ApiError(SIGN_IN_AGAIN, 401), sent('new@shop.test')],
      wrongPasswords: ['oops'],
    });
    await waitFor(actor, (s) => s.matches('viewing'));
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'SAVE', name: 'Mia', email: 'New@shop.test' });
    await waitFor(actor, (s) => s.matches('confirmingPassword'));

    actor.send({ type: 'CONFIRM_PASSWORD', password: '' });
    expect(actor.getSnapshot().context.reauthError).toBe('Please enter your password');
    actor.send({ type: 'CONFIRM_PASSWORD', password: 'oops' });
    await waitFor(
      actor,
      (s) => s.matches('confirmingPassword') && s.context.reauthError !== 'Please enter your password',
    );
    expect(actor.getSnapshot().context.reauthError).toBe('Current password is incorrect');

    actor.send({ type: 'CONFIRM_PASSWORD', password: 'right' });
    const done = await waitFor(actor, (s) => s.matches('viewing'));
    expect(passwords).toEqual(['oops', 'right']);
    expect(saves).toEqual([{ email: 'New@shop.test' }, { email: 'New@shop.test' }]);
    expect(done.context).toMatchObject({ emailSentTo: 'new@shop.test', saveError: null, pending: null });
    // The email shown is still the current one until the link is followed.
    expect(done.context.profile?.user.email).toBe('mia@shop.test');
    expect(savedMessage(sent('new@shop.test'))).toBe(
      'We sent a link to new@shop.test: your email changes when you follow it',
    );
  });

  it('goes back to the form on Cancel, and shows other refusals there', async () => {
    const { actor, passwords } = start({
      answers: [new ApiError(SIGN_IN_AGAIN, 401), new ApiError('Email already in use', 409)],
    });
    await waitFor(actor, (s) => s.matches('viewing'));
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'SAVE', name: 'Mia', email: 'taken@shop.test' });
    await waitFor(actor, (s) => s.matches('confirmingPassword'));
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    actor.send({ type: 'SAVE', name: 'Mia', email: 'taken@shop.test' });
    const refused = await waitFor(actor, (s) => s.matches('editing') && s.context.saveError !== null);
    expect(refused.context.saveError).toBe('Email already in use');
    expect(passwords).toEqual([]);
  });

  it('shows the server message to an account without a password (Google) instead of asking for one', async () => {
    const { actor } = start({ provider: 'google.com', answers: [new ApiError(SIGN_IN_AGAIN, 401)] });
    await waitFor(actor, (s) => s.matches('viewing'));
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'SAVE', name: 'Mia', email: 'other@shop.test' });
    const refused = await waitFor(actor, (s) => s.matches('editing') && s.context.saveError !== null);
    expect(refused.context.saveError).toBe(SIGN_IN_AGAIN);
  });
});
