/**
 * A newcomer's first day on a fresh server: the admin signs in with the password the first start
 * printed and is asked for a new one before anything else (no navigation, no data), then reaches the
 * dashboard; the printed password no longer signs in.
 */
import { startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { choosePassword, expect, test } from './support/fixtures';

test.describe('first day', () => {
  let own: ServerProcess;

  test.beforeAll(async () => {
    own = await startServer({ DNS_PORT: '0' }, tempDataDir());
  });
  test.afterAll(async () => {
    await own?.stop();
  });

  test('the first sign-in as admin asks for a new password first, then opens the dashboard', async ({ page }) => {
    await page.goto(`${own.url}/sign-in`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(own.adminPassword!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Choose a new password', level: 1 })).toBeVisible();
    // Nothing else of the dashboard until then.
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    const refused = await page.evaluate(async () => (await fetch('/bff/api/domains')).status);
    expect(refused).toBe(403);

    await choosePassword(page, own.adminPassword!, 'my own admin password');
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

    // Signed out and in again: the new password, no step; the printed one is refused.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(own.adminPassword!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await page.getByLabel('Password').fill('my own admin password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  });
});
