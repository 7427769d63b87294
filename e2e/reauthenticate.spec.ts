/**
 * A dashboard left open for more than 10 minutes asks for the password again before an act that
 * adds a way into an account or acts on another user: an administrator creating a user, a user
 * turning on two-factor sign-in or adding a passkey. The session's sign-in is moved back in the
 * database, as 11 minutes of waiting would; the password is typed into the dialog, and the act
 * goes through.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { cli, expect, signIn, test } from './support/fixtures';
import type { ServerInfo } from './support/server-info';

/** Every session of `username` signed in 11 minutes ago. */
function leftOpen(server: ServerInfo, username: string): void {
  const db = new Database(path.join(server.dataDir, 'zonedeck.db'), { timeout: 10_000 });
  try {
    db.prepare('update sessions set authenticated_at = ? where user_id = (select id from users where username = ?)').run(new Date(Date.now() - 11 * 60_000).toISOString(), username);
  } finally {
    db.close();
  }
}

async function confirmPassword(page: Page, password: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('needs a sign-in within the last 10 minutes');
  await dialog.getByLabel('Your password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toBeHidden();
}

test('after 10 minutes, creating a user, turning on two-factor sign-in and adding a passkey ask for the password first', async ({ page, server }) => {
  const admin = { username: `ra${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(6).toString('hex')}` };
  cli(server, 'users', 'add', admin.username, '--password', admin.password, '--admin');
  await page.goto('/sign-in');
  await signIn(page, admin);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();

  leftOpen(server, admin.username);
  await page.goto('/admin/users');
  const newcomer = `nu${randomBytes(4).toString('hex')}`;
  await page.getByLabel('New user').fill(newcomer);
  await page.getByRole('button', { name: 'Create user' }).click();
  await confirmPassword(page, admin.password);
  await expect(page.getByRole('dialog', { name: `User ${newcomer} created` })).toBeVisible();

  leftOpen(server, admin.username);
  await page.goto('/account');
  const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in' });
  await twoFactor.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await confirmPassword(page, admin.password);
  await expect(twoFactor.getByTestId('totp-secret')).toBeVisible();

  leftOpen(server, admin.username);
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await passkeys.getByLabel('Passkey name').fill('Left open');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(passkeys.getByText('No passkey yet.')).toBeVisible();
});
