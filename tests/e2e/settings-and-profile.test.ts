// End to end in Chromium: Settings tabs, Save Changes persisting across a reload with a
// toast, the theme from Appearance, the read-only view and note for staff with the
// permission matrix; Profile edits that persist and reach the header, a new email after
// signing in again (the server wants a sign-in within 5 minutes) that takes effect when the
// link mailed to it is followed, Change Password (wrong current password refused, then a
// real change that signs in), hidden for guests, and Log Out from the Danger Zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { BROWSER_TESTS, launchBrowser } from '../helpers/browser.js';
import { apiAccount, screenshot, seeText } from '../helpers/e2e-app.js';
import { uniqueEmail, type TestAccount } from '../helpers/emulator-accounts.js';
import { emailChangeLinks, followOobCode } from '../helpers/emulator-oob.js';
import { backdateSignIn, expireBrowserToken } from '../helpers/emulator-sign-in-age.js';
import { startE2EServer, type E2EServer } from '../helpers/e2e-server.js';
import { openPage, signIn, type OpenPage } from './shared-steps.js';

describe('settings and profile', BROWSER_TESTS, () => {
  let server: E2EServer;
  let browser: Browser;
  let manager: TestAccount;
  let staff: TestAccount;
  let admin: OpenPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startE2EServer(), launchBrowser()]);
    manager = await apiAccount(server, 'Sofia Settings');
    staff = await apiAccount(server, 'Pete Profile');
    admin = await openPage(browser, server);
    await signIn(admin.page, manager.email!, manager.password!);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('saves store settings with Save Changes, and they survive a reload', async () => {
    const page = admin.page;
    await page.goto('/settings');
    await page.getByLabel('Store Name').waitFor();
    expect(await page.getByRole('tab').allTextContents()).toEqual([
      'General',
      'Notifications',
      'Appearance',
      'Permissions',
      'Integrations',
    ]);
    await page.getByLabel('Store Name').fill('Harbour Street Store');
    await page.getByLabel('Contact Email').fill('Owner@Harbour.test');
    await page.getByLabel('Default Low-Stock Threshold').fill('7');
    await page.getByRole('switch', { name: 'Allow guest sign-in' }).uncheck();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('switch', { name: 'Email Notifications' }).uncheck();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await seeText(page, 'Settings saved');

    await page.reload();
    await page.getByLabel('Store Name').waitFor();
    expect(await page.getByLabel('Store Name').inputValue()).toBe('Harbour Street Store');
    expect(await page.getByLabel('Contact Email').inputValue()).toBe('owner@harbour.test');
    expect(await page.getByLabel('Default Low-Stock Threshold').inputValue()).toBe('7');
    expect(await page.getByRole('switch', { name: 'Allow guest sign-in' }).isChecked()).toBe(false);
    await page.getByRole('tab', { name: 'Notifications' }).click();
    expect(await page.getByRole('switch', { name: 'Email Notifications' }).isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'Push Notifications' }).isChecked()).toBe(true);

    // A refused value says why and keeps the input.
    await page.getByRole('tab', { name: 'General' }).click();
    await page.getByLabel('Contact Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await seeText(page.getByRole('tabpanel'), 'Invalid email address');
    expect(await page.getByLabel('Contact Email').inputValue()).toBe('not-an-email');
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(await page.getByLabel('Contact Email').inputValue()).toBe('owner@harbour.test');
  }, 90_000);

  it('sets the theme from Appearance, kept after a reload', async () => {
    const page = admin.page;
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await page.getByRole('radio', { name: /Dark/ }).check();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    await page.getByRole('tab', { name: 'General' }).waitFor();
    expect(
      await page.evaluate(() => [document.documentElement.classList.contains('dark'), localStorage.getItem('theme')]),
    ).toEqual([true, 'dark']);
    await page.getByRole('tab', { name: 'Appearance' }).click();
    await page.getByRole('radio', { name: /Light/ }).check();
    expect(await page.evaluate(() => document.documentElement.classList.contains('light'))).toBe(true);
  }, 60_000);

  it('shows managers the permission matrix, and staff read-only settings with the note', async () => {
    await admin.page.getByRole('tab', { name: 'Permissions' }).click();
    await seeText(admin.page.getByRole('tabpanel'), 'These settings can only be modified by store managers.');
    const matrix = admin.page.getByRole('table', { name: 'Permissions of each role' });
    expect(await matrix.getByRole('columnheader').allTextContents()).toEqual([
      'Permission',
      'Store Manager',
      'Staff Member',
      'Guest',
    ]);
    expect(
      await matrix
        .getByRole('row', { name: /Manage users/ })
        .getByRole('img', { name: 'Yes' })
        .count(),
    ).toBe(1);

    const staffPage = await openPage(browser, server);
    await signIn(staffPage.page, staff.email!, staff.password!);
    await staffPage.page.goto('/settings');
    await staffPage.page.getByLabel('Store Name').waitFor();
    await seeText(staffPage.page, 'These settings can only be modified by store managers.');
    expect(await staffPage.page.getByLabel('Store Name').inputValue()).toBe('Harbour Street Store');
    expect(await staffPage.page.getByLabel('Store Name').isDisabled()).toBe(true);
    expect(await staffPage.page.getByRole('button', { name: 'Save Changes' }).count()).toBe(0);
    // The Permissions tab is for managers only.
    expect(await staffPage.page.getByRole('tab').allTextContents()).toEqual(['General', 'Notifications', 'Appearance']);
    await staffPage.context.close();
  }, 60_000);

  it('edits the profile: saved on the server, shown in the header, kept after a reload', async () => {
    const page = admin.page;
    await page.goto('/profile');
    expect(await page.getByTestId('profile-role').textContent()).toBe('Store Manager');
    expect(await page.getByTestId('profile-full-name').textContent()).toBe('Sofia Settings');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Full Name').fill('   ');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await seeText(page, 'Full Name is required');
    await page.getByLabel('Full Name').fill('Sofia S. Keeper');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await seeText(page, 'Profile updated');
    expect(await page.getByTestId('profile-full-name').textContent()).toBe('Sofia S. Keeper');
    await page.getByRole('button', { name: 'Account menu for Sofia S. Keeper' }).waitFor({ timeout: 10_000 });
    await page.reload();
    await page.getByTestId('profile-full-name').getByText('Sofia S. Keeper').waitFor({ timeout: 15_000 });
  }, 60_000);

  it('changes the email after signing in again; the new address signs in once its link is followed', async () => {
    const page = admin.page;
    const oldEmail = manager.email!;
    // Signed in ten minutes ago, token refreshed since: too old to change the email.
    await backdateSignIn(manager.uid, 10 * 60_000);
    await expireBrowserToken(page);
    await page.getByTestId('profile-email').waitFor({ timeout: 15_000 });
    const newEmail = uniqueEmail('sofia-moved');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Email', { exact: true }).fill(newEmail);
    await page.getByRole('button', { name: 'Save Changes' }).click();

    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await dialog.waitFor({ timeout: 15_000 });
    await dialog.getByLabel('Password').fill('wrong-password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await seeText(dialog, 'Current password is incorrect');
    await screenshot(page, 'profile-sign-in-again');
    await dialog.getByLabel('Password').fill(manager.password!);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await seeText(page, `We sent a link to ${newEmail}: your email changes when you follow it`);
    await seeText(page.getByTestId('profile-email-pending'), newEmail);
    // Not changed yet: the address is the old one until the link is followed.
    expect(await page.getByTestId('profile-email').textContent()).toBe(oldEmail);

    const [link] = await emailChangeLinks(newEmail);
    expect(link).toMatchObject({ email: oldEmail, newEmail });
    await followOobCode(link!.oobCode);
    const moved = await openPage(browser, server);
    await signIn(moved.page, newEmail, manager.password!);
    await moved.page.goto('/profile');
    await moved.page.getByTestId('profile-email').getByText(newEmail).waitFor({ timeout: 15_000 });
    await moved.context.close();
    manager.email = newEmail;
  }, 90_000);

  it('changes the password after checking the current one; the new one signs in', async () => {
    const page = admin.page;
    const form = page.getByRole('region', { name: 'Change Password' });
    await form.getByLabel('Current Password').fill('wrong-password');
    await form.getByLabel('New Password', { exact: true }).fill('brand-new-1');
    await form.getByLabel('Confirm New Password').fill('brand-new-2');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await seeText(form, 'Passwords do not match');
    await form.getByLabel('Confirm New Password').fill('brand-new-1');
    await form.getByRole('button', { name: 'Update Password' }).click();
    await seeText(form, 'Current password is incorrect');
    await form.getByLabel('Current Password').fill(manager.password!);
    await form.getByRole('button', { name: 'Update Password' }).click();
    await seeText(page, 'Password changed');
    expect(await form.getByLabel('Current Password').inputValue()).toBe('');

    const fresh = await openPage(browser, server);
    await signIn(fresh.page, manager.email!, 'brand-new-1');
    await fresh.context.close();
  }, 60_000);

  it('hides Change Password and editing for a guest, and logs out from the Danger Zone', async () => {
    await admin.page.goto('/settings');
    // Guest sign-in is off until a manager switches it on here.
    const guestSwitch = admin.page.getByRole('switch', { name: 'Allow guest sign-in' });
    expect(await guestSwitch.isChecked()).toBe(false);
    await guestSwitch.check();
    await screenshot(admin.page, 'settings-guest-sign-in');
    await admin.page.getByRole('button', { name: 'Save Changes' }).click();
    await seeText(admin.page, 'Settings saved');

    const guest = await openPage(browser, server);
    await guest.page.goto('/login');
    await guest.page.getByRole('button', { name: 'Continue as guest' }).click();
    await guest.page.waitForURL('**/dashboard', { timeout: 30_000 });
    await guest.page.goto('/profile');
    await guest.page.getByTestId('profile-role').getByText('Guest').waitFor();
    expect(await guest.page.getByRole('region', { name: 'Change Password' }).count()).toBe(0);
    expect(await guest.page.getByRole('button', { name: 'Edit Profile' }).count()).toBe(0);
    await guest.page.getByRole('button', { name: 'Log Out' }).click();
    await guest.page.waitForURL('**/login', { timeout: 15_000 });
    await guest.context.close();
    expect(admin.errors).toEqual([]);
  }, 60_000);
});
