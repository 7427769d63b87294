/**
 * Single sign-on in a real browser. A real OpenID provider (oidc-provider) runs in this process;
 * a second zonedeck started here is its client (the run's server has no OIDC_* and stays so for
 * the other specs). A user signed in with a password links the provider on the Account page, then
 * clicks "Sign in with Test IdP", signs in at the provider and lands on the dashboard; a provider
 * account whose verified email is a user's gets no session until that user links it; a user with
 * two-factor sign-in gives the code after the provider too; a provider that sends back another
 * state, or signs another nonce, lands the browser on the sign-in page with the reason; an
 * administrator turns password sign-in off on the Users page, and the sign-in page then offers
 * only single sign-on and passkeys.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { freePort } from '../server/testing/test-server';
import { startTestIdp, type TestIdp } from '../server/testing/oidc-idp';
import { cli, startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { expect, signIn, test } from './support/fixtures';

const codeOf = (secret: string, stepsAhead = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

/**
 * At the provider: its login form the first time in this browser; later, its session sends the
 * browser straight back to `landed` (a page the browser was not on before the click).
 */
async function atProvider(page: Page, idp: TestIdp, login: string, landed: (u: URL) => boolean): Promise<void> {
  const form = (u: URL) => u.href.startsWith(`${idp.issuer}/interaction/`);
  await page.waitForURL((u) => form(u) || landed(u));
  if (form(new URL(page.url()))) {
    await page.getByLabel('Login').fill(login);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
}

test.describe('single sign-on (OpenID Connect)', () => {
  let idp: TestIdp;
  let own: ServerProcess;
  let dataDir: string;
  const user = `sso${randomBytes(3).toString('hex')}`;
  const dave = `dave${randomBytes(3).toString('hex')}`;
  const erin = `erin${randomBytes(3).toString('hex')}`;
  /** Back on the Account page from a link. */
  const linked = (u: URL) => u.origin === new URL(own.url).origin && u.pathname === '/account' && u.searchParams.has('sso');
  /** Back on zonedeck past the sign-in page: signed in, or at its second step. */
  const signedIn = (u: URL) => u.origin === new URL(own.url).origin && !u.pathname.startsWith('/bff/') && (!u.pathname.startsWith('/sign-in') || u.searchParams.get('sso') === 'second-factor');

  test.beforeAll(async () => {
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    idp = await startTestIdp([`${site}/bff/oidc/callback`]);
    idp.accounts.set('carol', { sub: 'carol-sub', email: `${user}@example.com`, email_verified: true, preferred_username: 'carol' });
    idp.accounts.set('dave', { sub: 'dave-sub', email: `${dave}@example.com`, email_verified: true });
    idp.accounts.set('erin', { sub: 'erin-sub', email: `${erin}@example.com`, email_verified: true });
    dataDir = tempDataDir();
    own = await startServer({ PORT: String(port), OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_NAME: 'Test IdP' }, dataDir);
    expect(own.url).toBe(site);
    cli(dataDir, 'users', 'add', user, '--password', 'password-of-carol');
    cli(dataDir, 'users', 'email', user, `${user}@example.com`);
    cli(dataDir, 'users', 'add', dave, '--password', 'password-of-dave');
    cli(dataDir, 'users', 'add', erin, '--password', 'password-of-erin');
  });

  test.afterAll(async () => {
    await own?.stop();
    await idp?.close();
  });

  test('a verified email alone signs nobody in; the user links the provider on the Account page, then signs in through it', async ({ page }) => {
    await page.goto(`${own.url}/sign-in`);
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await expect(page.getByRole('heading', { name: 'Test IdP' })).toBeVisible();
    await page.getByLabel('Login').fill('carol');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/sign-in\?error=sso_not_linked$/);
    await expect(page.getByRole('alert')).toContainText('not linked to your account yet');

    await signIn(page, { username: user, password: 'password-of-carol' });
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: `Account of ${user}` }).click();
    const identities = page.getByRole('region', { name: 'Single sign-on' });
    await expect(identities.getByText('No identity linked yet.')).toBeVisible();
    await identities.getByRole('button', { name: 'Link Test IdP' }).click();
    await atProvider(page, idp, 'carol', linked);
    await expect(identities.getByText('Linked: Test IdP signs you in to this account now')).toBeVisible();
    await expect(identities.getByRole('row').filter({ hasText: `${user}@example.com` })).toContainText(idp.issuer);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await atProvider(page, idp, 'carol', signedIn);
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: `Account of ${user}` })).toBeVisible();
  });

  test('a user with two-factor sign-in gives the code after the provider', async ({ page }) => {
    await page.goto(`${own.url}/sign-in`);
    await signIn(page, { username: erin, password: 'password-of-erin' });
    await page.getByRole('link', { name: `Account of ${erin}` }).click();
    const identities = page.getByRole('region', { name: 'Single sign-on' });
    await identities.getByRole('button', { name: 'Link Test IdP' }).click();
    await atProvider(page, idp, 'erin', linked);
    await expect(identities.getByRole('row').filter({ hasText: `${erin}@example.com` })).toBeVisible();
    const card = page.getByRole('region', { name: 'Two-factor sign-in' });
    await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await card.getByTestId('totp-secret').textContent())!.trim();
    await card.getByLabel('Code from the app').fill(codeOf(secret));
    await card.getByRole('button', { name: 'Turn on' }).click();
    await card.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await atProvider(page, idp, 'erin', signedIn);
    const step = page.getByLabel('Authentication code');
    await expect(page.getByText(`Test IdP signed you in as ${erin}`)).toBeVisible();
    await step.fill(codeOf(secret, 1));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: `Account of ${erin}` })).toBeVisible();
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

  test('a user links the provider, an administrator turns password sign-in off; the sign-in page then offers single sign-on and passkeys only', async ({ page }) => {
    await page.goto(`${own.url}/sign-in`);
    await signIn(page, { username: dave, password: 'password-of-dave' });
    await page.getByRole('link', { name: `Account of ${dave}` }).click();
    const identities = page.getByRole('region', { name: 'Single sign-on' });
    await identities.getByRole('button', { name: 'Link Test IdP' }).click();
    await atProvider(page, idp, 'dave', linked);
    await expect(identities.getByRole('row').filter({ hasText: `${dave}@example.com` })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await signIn(page, { username: 'admin', password: own.adminPassword! });
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await page.goto(`${own.url}/admin/users`);
    const card = page.getByRole('region', { name: 'Sign-in' });
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
    // dave, who linked the provider, signs in through it.
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await atProvider(page, idp, 'dave', signedIn);
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: `Account of ${dave}` })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();

    // The admin CLI is the way back.
    cli(dataDir, 'settings', 'password-sign-in', 'on');
    await page.reload();
    await expect(page.getByLabel('Password')).toBeVisible();
  });
});
