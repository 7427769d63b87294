/**
 * Issue 28: single sign-on in a real browser. A real OpenID provider (oidc-provider) runs in this
 * process; a second zonedeck started here is its client (the run's server has no OIDC_* and
 * stays so for the other specs). A user clicks "Sign in with Test IdP", signs in at the
 * provider's form and lands on the dashboard signed in; a provider that sends back another state,
 * or signs another nonce, lands the browser on the sign-in page with the reason; an administrator turns password sign-in
 * off on the Users page, and the sign-in page then offers only single sign-on and passkeys.
 */
import { randomBytes } from 'node:crypto';
import { freePort } from '../server/testing/test-server';
import { startTestIdp, type TestIdp } from '../server/testing/oidc-idp';
import { cli, startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { expect, signIn, test } from './support/fixtures';

test.describe('single sign-on (OpenID Connect)', () => {
  let idp: TestIdp;
  let own: ServerProcess;
  let dataDir: string;
  const user = `sso${randomBytes(3).toString('hex')}`;
  const dave = `dave${randomBytes(3).toString('hex')}`;

  test.beforeAll(async () => {
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    idp = await startTestIdp([`${site}/bff/oidc/callback`]);
    idp.accounts.set('carol', { sub: 'carol-sub', email: `${user}@example.com`, email_verified: true, preferred_username: 'carol' });
    idp.accounts.set('dave', { sub: 'dave-sub', email: `${dave}@example.com`, email_verified: true });
    dataDir = tempDataDir();
    own = await startServer({ PORT: String(port), OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_NAME: 'Test IdP' }, dataDir);
    expect(own.url).toBe(site);
    cli(dataDir, 'users', 'add', user, '--password', 'password-of-carol');
    cli(dataDir, 'users', 'email', user, `${user}@example.com`);
    cli(dataDir, 'users', 'add', dave);
  });

  test.afterAll(async () => {
    await own?.stop();
    await idp?.close();
  });

  test('sign in through the provider and land on the dashboard', async ({ page }) => {
    await page.goto(`${own.url}/sign-in`);
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await expect(page.getByRole('heading', { name: 'Test IdP' })).toBeVisible();
    await page.getByLabel('Login').fill('carol');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: `Account of ${user}` }).click();
    const identities = page.getByRole('region', { name: 'Single sign-on' });
    await expect(identities.getByRole('row').filter({ hasText: `${user}@example.com` })).toContainText(idp.issuer);
  });

  for (const [what, code, words] of [
    ['state', 'sso_expired', 'expired or was already used'],
    ['nonce', 'sso_failed', 'could not be verified'],
  ] as const) {
    test(`a provider's answer with another ${what} is refused`, async ({ page }) => {
      idp.tamper[what] = true;
      try {
        await page.goto(`${own.url}/sign-in`);
        await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
        await page.getByLabel('Login').fill('carol');
        await page.getByRole('button', { name: 'Continue' }).click();
        await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
        await expect(page.getByRole('alert')).toContainText(words);
        await expect(page).toHaveURL(new RegExp(`/sign-in\\?error=${code}$`));
      } finally {
        idp.tamper[what] = false;
      }
      // Still signed out.
      await page.goto(`${own.url}/domains`);
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    });
  }

  test('an administrator links a user by email and turns password sign-in off; the sign-in page then offers single sign-on and passkeys only', async ({ page }) => {
    await page.goto(`${own.url}/sign-in`);
    await signIn(page, { username: 'admin', password: own.adminPassword! });
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await page.goto(`${own.url}/admin/users`);
    const card = page.getByRole('region', { name: 'Sign-in' });
    const emailForm = card.getByRole('form', { name: 'Email address for single sign-on' });
    await emailForm.getByLabel('Username').fill(dave);
    await emailForm.getByLabel('Email for single sign-on').fill(`${dave.toUpperCase()}@Example.com`);
    await emailForm.getByRole('button', { name: 'Set email' }).click();
    await expect(page.getByText(`${dave} signs in with single sign-on as ${dave}@example.com`)).toBeVisible();
    const toggle = card.getByRole('switch', { name: 'Password sign-in on' });
    await toggle.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Turn password sign-in off' }).click();
    await expect(card.getByRole('switch', { name: 'Password sign-in off' })).toHaveAttribute('aria-checked', 'false');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveCount(0);
    await expect(page.getByText('Password sign-in is turned off on this server')).toBeVisible();
    // dave, linked by the address the administrator gave, signs in through the provider.
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.getByLabel('Login').fill('dave');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: `Account of ${dave}` })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();

    // The admin CLI is the way back.
    cli(dataDir, 'settings', 'password-sign-in', 'on');
    await page.reload();
    await expect(page.getByLabel('Password')).toBeVisible();
  });
});
