/**
 * In the dashboard: a user turns on two-factor sign-in on the Account page (the code
 * computed here from the secret the page shows, as an authenticator app would), keeps the
 * recovery codes, and from then on signs in with a code: a reused code is refused, a recovery
 * code works once.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { cli, expect, signIn, test } from './support/fixtures';

const codeOf = (secret: string, stepsAhead = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

async function signInWithCode(page: Page, user: { username: string; password: string }, code: string): Promise<void> {
  await signIn(page, user);
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('two-factor sign-in: enrol with a QR code and secret, sign in with a code once, and with a recovery code once', async ({ page, server }) => {
  const user = { username: `tf${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(6).toString('hex')}` };
  cli(server, 'users', 'add', user.username, '--password', user.password);

  await page.goto('/sign-in');
  await signIn(page, user);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: `Account of ${user.username}` }).click();
  const card = page.getByRole('region', { name: 'Two-factor sign-in' });
  await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(card.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const secret = (await card.getByTestId('totp-secret').textContent())!.trim();
  await card.getByLabel('Code from the app').fill('000000' === codeOf(secret) ? '111111' : '000000');
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByText(/not the current code/)).toBeVisible();
  await card.getByLabel('Code from the app').fill(codeOf(secret));
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByTestId('recovery-codes').locator('code')).toHaveCount(10);
  const codes = (await card.getByTestId('recovery-codes').locator('code').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByText('10 of 10 recovery codes left')).toBeVisible();
  await signOut(page);

  // The password alone is no longer enough; the next code signs in, once.
  const next = codeOf(secret, 1);
  await signInWithCode(page, user, next);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await signOut(page);
  await signInWithCode(page, user, next);
  await expect(page.getByRole('alert')).toContainText('Wrong code');
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toHaveCount(0);

  // A recovery code, once.
  await page.getByLabel('Authentication code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: `Account of ${user.username}` }).click();
  await expect(page.getByRole('region', { name: 'Two-factor sign-in' }).getByText('9 of 10 recovery codes left')).toBeVisible();
});

test('an administrator resets a lost second factor after confirming in a dialog; the user then signs in with the password alone', async ({ page, browser, server }) => {
  const user = { username: `tr${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(6).toString('hex')}` };
  const admin = { username: `ta${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(6).toString('hex')}` };
  cli(server, 'users', 'add', user.username, '--password', user.password);
  cli(server, 'users', 'add', admin.username, '--password', admin.password, '--admin');

  // The user turns on two-factor sign-in in a browser of their own.
  const theirs = await browser.newContext({ baseURL: server.url });
  const their = await theirs.newPage();
  await their.goto('/sign-in');
  await signIn(their, user);
  await their.getByRole('link', { name: `Account of ${user.username}` }).click();
  const card = their.getByRole('region', { name: 'Two-factor sign-in' });
  await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await card.getByTestId('totp-secret').textContent())!.trim();
  await card.getByLabel('Code from the app').fill(codeOf(secret));
  await card.getByRole('button', { name: 'Turn on' }).click();
  await card.getByRole('button', { name: 'I have saved them' }).click();
  await expect(card.getByText('10 of 10 recovery codes left')).toBeVisible();

  await page.goto('/sign-in');
  await signIn(page, admin);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.goto(`/admin/users?q=${user.username}`);
  const reset = page.getByRole('button', { name: `Reset two-factor sign-in of ${user.username}` });
  const dialog = page.getByRole('dialog', { name: `Remove the two-factor sign-in and every passkey of ${user.username}?` });
  // Cancel leaves everything as it was: the code is still asked.
  await reset.click();
  await expect(dialog).toContainText('sign in with their password alone');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await signOut(their);
  await signIn(their, user);
  await expect(their.getByLabel('Authentication code')).toBeVisible();

  await reset.click();
  await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${user.username} signs in with their password alone now`)).toBeVisible();
  await their.goto('/sign-in');
  await signIn(their, user);
  await expect(their.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await theirs.close();
});
