/**
 * Health-checked pools from the dashboard. A server of its own, allowed to check loopback
 * (HEALTH_ALLOW_PRIVATE=true), and an HTTP server on 127.0.0.1 as the healthy member; a second
 * member on 127.0.0.2, where nothing listens, stays down. The pool is made through the form (a
 * bad address first, refused beside its field), its page shows the healthy member up and DNS
 * answers only it; then it is edited and deleted. axe and a phone's width on the way.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cli, startServer, type ServerProcess } from '../server/testing/server-process';
import { ApiClient } from './support/api-client';
import { dig } from './support/dns-checks';
import { expect, screenshot, signIn, test } from './support/fixtures';
import { PHONE, scrollsSideways, serious } from './support/page-checks';
import type { ServerInfo } from './support/server-info';

let own: ServerProcess;
let member: http.Server;
let port: number;

test.beforeAll(async () => {
  member = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((r) => member.listen(0, '127.0.0.1', () => r()));
  port = (member.address() as AddressInfo).port;
  own = await startServer({ HEALTH_ALLOW_PRIVATE: 'true', HEALTH_MIN_INTERVAL_S: '1', DNS_PORT: '0' });
});

test.afterAll(async () => {
  await own?.stop();
  member?.close();
});

test('a pool made in the form checks its members, answers the healthy one, and is edited and deleted', async ({ page }) => {
  const username = 'poolkeeper';
  cli(own.dataDir, 'users', 'add', username, '--password', 'pool password');
  const api = new ApiClient(own.url, cli(own.dataDir, 'tokens', 'create', username).at(-1)!);
  const zone = 'pools.test';
  expect((await api.call('POST', '/domains', { name: zone })).status).toBe(201);

  await page.goto(`${own.url}/sign-in`);
  await signIn(page, { username, password: 'pool password' });
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.goto(`${own.url}/domains/${zone}`);
  await page
    .getByRole('navigation', { name: `Views of ${zone}` })
    .getByRole('link', { name: 'Pools' })
    .click();
  await expect(page.getByText('No pools yet')).toBeVisible();

  await page.getByRole('button', { name: 'New pool' }).click();
  const form = page.getByRole('form', { name: 'New pool' });
  await form.getByLabel('Name').fill('www');
  await form.getByLabel('Address of member 1').fill('127.0.0.1');
  await form.getByLabel('Address of member 2').fill('127.0.0.300');
  await form.getByLabel('Port').fill(String(port));
  await form.getByLabel('Path').fill('/health');
  await form.getByLabel('Every (s)').fill('1');
  await form.getByLabel('Timeout (ms)').fill('500');
  await form.getByLabel('Failures to go down').fill('1');
  await form.getByLabel('Successes to come up').fill('1');
  await form.getByRole('button', { name: 'Create pool' }).click();
  // The server refuses the second address, and says so beside it.
  const second = form.getByLabel('Address of member 2');
  await expect(second).toHaveAttribute('aria-invalid', 'true');
  await expect(second.locator('xpath=..').locator('.field-error')).toBeVisible();
  expect(await serious(page, '.pool-form')).toEqual([]);

  await second.fill('127.0.0.2');
  await form.getByRole('button', { name: 'Create pool' }).click();

  // The pool's own page: the healthy member up, the other down, DNS answering only the first.
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
  const rows = page.getByTestId('member-row');
  await expect(rows.filter({ hasText: '127.0.0.1' })).toContainText('Up', { timeout: 30_000 });
  await expect(rows.filter({ hasText: '127.0.0.2' })).toContainText('Down', { timeout: 30_000 });
  await expect(page.getByTestId('pool-answer')).toHaveText('127.0.0.1');
  await expect(page.getByRole('list', { name: 'Transitions, newest first' })).toContainText('127.0.0.2 went down');
  const dns: ServerInfo = { url: own.url, dataDir: own.dataDir, pid: own.child.pid!, adminPassword: '', dnsPort: own.dnsPort };
  await expect.poll(() => dig(dns, `www.${zone}`, 'A').map((a) => a.content)).toEqual(['127.0.0.1']);
  expect(await serious(page)).toEqual([]);
  await screenshot(page, 'pool');

  // The list shows the same, with the members as badges and the count.
  await page.getByRole('link', { name: 'Pools', exact: true }).click();
  const item = page.getByTestId('pool-item').filter({ hasText: 'www' });
  await expect(item).toContainText('1 of 2 up');
  await expect(item).toContainText('127.0.0.1');

  // On a phone nothing scrolls sideways: not the list, not the form, not the pool's page.
  await page.setViewportSize(PHONE);
  expect(await scrollsSideways(page)).toBe(false);
  await item.getByRole('button', { name: 'Edit pool www' }).click();
  const edit = page.getByRole('form', { name: 'Change pool www' });
  await expect(edit.getByLabel('Name')).toBeDisabled();
  expect(await scrollsSideways(page)).toBe(false);
  expect(await serious(page)).toEqual([]);

  // Edited: the down member leaves; the answer stays the healthy one.
  await edit.getByRole('button', { name: 'Remove member 2 (127.0.0.2)' }).click();
  await edit.getByLabel('TTL (s)').fill('60');
  await edit.getByRole('button', { name: 'Save pool' }).click();
  await expect(edit).toHaveCount(0);
  await expect(item).toContainText('1 of 1 up');
  expect((await api.get(`/domains/${zone}/pools/www`)).members).toHaveLength(1);

  // The records table marks the pool's set and leads to the pool instead of editing it.
  expect((await api.call('POST', `/domains/${zone}/records`, { name: 'note', record_type: 'TXT', content: 'beside the pool' })).status).toBe(200);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${own.url}/domains/${zone}`);
  await expect(page.getByRole('link', { name: `Pool answering www.${zone} A` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Edit www.${zone} A` })).toHaveCount(0);
  // "Select all shown" leaves the pool's set out: only the zone's own records are chosen to delete together.
  await page.getByRole('checkbox', { name: 'Select all shown records' }).check();
  await expect(page.getByRole('button', { name: 'Delete 1 record' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all shown records' }).uncheck();
  await page.getByRole('link', { name: `Pool answering www.${zone} A` }).click();
  await expect(page.getByTestId('member-row')).toHaveCount(1);
  await page.setViewportSize(PHONE);
  expect(await scrollsSideways(page)).toBe(false);

  // Deleted after a confirmation: the name no longer answers.
  await page.getByRole('button', { name: 'Delete pool' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete pool “www”?' });
  expect(await serious(page, 'dialog')).toEqual([]);
  await dialog.getByRole('button', { name: 'Delete pool' }).click();
  await expect(page.getByText('No pools yet')).toBeVisible();
  expect((await api.call('GET', `/domains/${zone}/pools/www`)).status).toBe(404);
});
