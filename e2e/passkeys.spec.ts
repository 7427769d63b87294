/**
 * Passkeys, with Chromium's virtual authenticator (DevTools WebAuthn domain) standing
 * in for a phone or security key. A user registers a passkey on the Account page, signs out and
 * signs in with the passkey alone (no username, no password); a second browser without the
 * credential cannot. WebAuthn needs a domain as its relying party, so the site is opened as
 * localhost rather than 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { cli, expect, signIn, test } from './support/fixtures';

async function withAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

test('register a passkey, then sign in with it alone; a browser without it cannot', async ({ browser, server }) => {
  const site = server.url.replace('127.0.0.1', 'localhost');
  const user = { username: `pk${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(6).toString('hex')}` };
  cli(server, 'users', 'add', user.username, '--password', user.password);

  const context: BrowserContext = await browser.newContext({ baseURL: site });
  const page = await context.newPage();
  await withAuthenticator(page);
  await page.goto('/sign-in');
  await signIn(page, user);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: `Account of ${user.username}` }).click();
  const card = page.getByRole('region', { name: 'Passkeys' });
  await card.getByLabel('Passkey name').fill('Test laptop');
  await card.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(card.getByRole('row').filter({ hasText: 'Test laptop' })).toContainText('never');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: `Account of ${user.username}` }).click();
  await expect(page.getByRole('region', { name: 'Passkeys' }).getByRole('row').filter({ hasText: 'Test laptop' })).not.toContainText('never');

  // Another browser, with an authenticator that holds no credential for this site.
  const other = await browser.newContext({ baseURL: site });
  const stranger = await other.newPage();
  await withAuthenticator(stranger);
  await stranger.goto('/sign-in');
  await stranger.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // The browser made no assertion: the page says so, not the server's error of some other kind.
  await expect(stranger.getByRole('alert')).toHaveText('No passkey was used. Try again, or sign in with your password.');
  await expect(stranger.getByRole('heading', { name: 'Domains', level: 1 })).toHaveCount(0);
  await other.close();
  await context.close();
});

test('opened at an IP address, passkeys say why they cannot work and link the same page at localhost', async ({ signedIn: page, server }) => {
  // The run's server is opened at 127.0.0.1, as the README's address is.
  expect(server.url).toContain('127.0.0.1');
  await page.goto('/account');
  const card = page.getByRole('region', { name: 'Passkeys' });
  await expect(card.getByText('Passkeys need a name, not an address (127.0.0.1)')).toBeVisible();
  await expect(card.getByRole('link', { name: 'open it at localhost' })).toHaveAttribute('href', `${server.url.replace('127.0.0.1', 'localhost')}/account`);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // Nothing said before a passkey is tried; the browser's refusal is explained, not "try again".
  await expect(page.getByText('Passkeys need a name')).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('Passkeys need a name, not an address (127.0.0.1)')).toBeVisible();
  await expect(page.getByRole('link', { name: 'open it at localhost' })).toHaveAttribute('href', /^http:\/\/localhost:\d+\/sign-in/);
});
