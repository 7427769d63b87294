/**
 * The operator's view: an administrator finds a user's zone on All zones and opens it read-only,
 * under a banner naming whose it is (records, history, settings shown; nothing offered to change;
 * the server refuses a write anyway); searches every account's records; and manages a user's IP
 * ranges from the Users page, a bad network named beside its input. A user without ranges sees no
 * warning on their A records.
 */
import { randomBytes } from 'node:crypto';
import { ApiClient } from './support/api-client';
import { cli, expect, screenshot, signIn, test, type TestUser } from './support/fixtures';
import type { ServerInfo } from './support/server-info';
import type { Page } from '@playwright/test';
import { PHONE, scrollsSideways, serious } from './support/page-checks';

/** A new administrator, signed in on `page`. */
async function signedInAdmin(page: Page, server: ServerInfo): Promise<{ username: string; api: ApiClient }> {
  const admin = { username: `op${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(6).toString('hex')}` };
  cli(server, 'users', 'add', admin.username, '--admin', '--password', admin.password);
  const api = new ApiClient(server.url, cli(server, 'tokens', 'create', admin.username, '--label', 'e2e checks').at(-1)!);
  await page.goto('/sign-in');
  await signIn(page, admin);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  return { username: admin.username, api };
}

/** A zone of the user with an A record outside any range (the user has none). */
async function userZone(user: TestUser): Promise<string> {
  const zone = `shop-${user.username}.test`;
  expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
  expect((await user.api.call('POST', `/domains/${zone}/records`, { name: 'www', record_type: 'A', content: '192.0.2.7' })).status).toBe(200);
  return zone;
}

test("an administrator opens a user's zone from All zones, read-only, and searches every account", async ({ page, server, user }) => {
  const zone = await userZone(user);
  const admin = await signedInAdmin(page, server);

  await page.getByRole('link', { name: 'All zones' }).click();
  await expect(page.getByRole('heading', { name: 'All zones', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(user.username);
  await expect(page).toHaveURL(new RegExp(`q=${user.username}`));
  const row = page.getByRole('row', { name: new RegExp(zone) });
  await expect(row).toContainText(user.username);
  await expect(page.locator('table.table > tbody > tr')).toHaveCount(1);
  expect(await serious(page)).toEqual([]);
  await screenshot(page, 'all-zones');

  await row.getByRole('link', { name: zone }).click();
  await expect(page.getByRole('heading', { name: zone, level: 1 })).toBeVisible();
  await expect(page.getByTestId('administrator-view')).toContainText(`You are viewing ${user.username}’s zone as an administrator`);
  await expect(page.getByRole('row', { name: /www/ })).toContainText('192.0.2.7');
  // Nothing to change is offered: no add, edit or delete; the settings are there, every control disabled.
  await expect(page.getByRole('button', { name: '+ Add record' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete domain' })).toHaveCount(0);
  await expect(page.getByLabel('Refresh (seconds)')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save settings' })).toBeDisabled();
  // The administrator's own ranges say nothing about another account's addresses.
  await expect(page.locator('.advice')).toHaveCount(0);
  expect(await serious(page)).toEqual([]);
  await screenshot(page, 'administrator-view');

  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByTestId('administrator-view')).toBeVisible();
  await expect(page.getByRole('button', { name: /Revert/ })).toHaveCount(0);

  // Whatever the page offers, the server is the judge: the administrator's write is refused, nothing changes.
  const write = await admin.api.call('POST', `/domains/${zone}/records`, { name: 'evil', record_type: 'A', content: '192.0.2.66' });
  expect(write.status).toBe(403);
  expect((await user.api.records(zone, 'name=evil')).length).toBe(0);

  // The search across every account.
  await page.goto('/search');
  await page.getByLabel('Name').fill(`www.${zone}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('Nothing found')).toBeVisible();
  await page.getByLabel('All accounts').check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/accounts=all/);
  await expect(page.getByRole('row', { name: new RegExp(`www.${zone}`) })).toContainText('192.0.2.7');
  await expect(page.getByRole('form', { name: 'Change every record found' })).toHaveCount(0);
  await page.getByRole('link', { name: zone }).click();
  await expect(page.getByTestId('administrator-view')).toBeVisible();

  // On a phone: the list and the zone fit the screen's width (the table scrolls inside its frame).
  await page.setViewportSize(PHONE);
  for (const path of [`/admin/zones?q=${user.username}`, `/domains/${zone}`]) {
    await page.goto(path);
    await expect(page.getByText(zone).first()).toBeVisible();
    expect(await scrollsSideways(page), path).toBe(false);
  }
});

test('a user sees neither All zones nor an All accounts search, and no warning on their addresses without ranges', async ({ signedIn: page, user }) => {
  const zone = await userZone(user);
  await expect(page.getByRole('link', { name: 'All zones' })).toHaveCount(0);
  await page.goto(`/domains/${zone}`);
  await expect(page.getByRole('row', { name: /www/ })).toContainText('192.0.2.7');
  await expect(page.getByTestId('administrator-view')).toHaveCount(0);
  await expect(page.locator('.advice')).toHaveCount(0);
  await page.goto('/search?name=www&accounts=all');
  await expect(page.getByLabel('All accounts')).toHaveCount(0);
  await expect(page.getByText('Could not search')).toBeVisible();
});

test("an administrator manages a user's IP ranges on the Users page", async ({ page, server, user }) => {
  await signedInAdmin(page, server);
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(user.username);
  await page.getByRole('button', { name: `IP ranges of ${user.username}` }).click();
  const dialog = page.getByRole('dialog', { name: `IP ranges of ${user.username}` });
  await expect(dialog.getByText('No IP ranges')).toBeVisible();

  const input = dialog.getByLabel('Address or network');
  await input.fill('198.51.100.0/33');
  await dialog.getByRole('button', { name: 'Add range' }).click();
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.locator('.field-error')).toBeVisible();
  expect(await user.api.get('/ips')).toEqual([]);

  await input.fill('198.51.100.0/24');
  await dialog.getByRole('button', { name: 'Add range' }).click();
  await expect(dialog.getByRole('list', { name: `IP ranges of ${user.username}` })).toContainText('198.51.100.0/24');
  await expect(input).toHaveValue('');
  expect((await user.api.get('/ips')).map((ip: { address: string; cidr: number }) => `${ip.address}/${ip.cidr}`)).toEqual(['198.51.100.0/24']);
  expect(await serious(page)).toEqual([]);
  await screenshot(page, 'user-ip-ranges');

  await dialog.getByRole('button', { name: 'Remove 198.51.100.0/24' }).click();
  await expect(dialog.getByText('No IP ranges')).toBeVisible();
  expect(await user.api.get('/ips')).toEqual([]);
});
