/**
 * Webhooks from the dashboard. A server of its own, allowed to deliver to loopback
 * (WEBHOOK_ALLOW_PRIVATE=true), and a receiver on 127.0.0.1 that records what it gets. A webhook
 * made on the Webhooks page shows its secret once; "Send test" delivers a ping the receiver can
 * verify with that secret, and the log shows it delivered with status 200; "Redeliver" sends it
 * again; then the webhook is edited and deleted. axe and a phone's width on the way.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cli, startServer, type ServerProcess } from '../server/testing/server-process';
import { ApiClient } from './support/api-client';
import { expect, screenshot, signIn, test } from './support/fixtures';
import { PHONE, scrollsSideways, serious } from './support/page-checks';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let own: ServerProcess;
let receiver: http.Server;
let hookUrl: string;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('thanks');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/zonedeck`;
  own = await startServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
});

test.afterAll(async () => {
  await own?.stop();
  receiver?.close();
});

test('a webhook shows its secret once, delivers a signed test event seen in its log, redelivers, and is edited and deleted', async ({ page }) => {
  const username = 'hookkeeper';
  cli(own.dataDir, 'users', 'add', username, '--password', 'hook password');
  const api = new ApiClient(own.url, cli(own.dataDir, 'tokens', 'create', username).at(-1)!);
  expect((await api.call('POST', '/domains', { name: 'hooks.test' })).status).toBe(201);

  await page.goto(`${own.url}/sign-in`);
  await signIn(page, { username, password: 'hook password' });
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByText('No webhooks yet')).toBeVisible();

  // No event ticked: caught before anything is sent.
  const form = page.getByRole('form', { name: 'Create a webhook' });
  await form.getByLabel('URL').fill(hookUrl);
  await form.getByRole('checkbox', { name: /zone\.changed/ }).uncheck();
  await form.getByRole('button', { name: 'Create webhook' }).click();
  await expect(form.getByText('Must name at least one event')).toBeVisible();
  await form.getByRole('checkbox', { name: /zone\.changed/ }).check();
  await form.getByRole('checkbox', { name: /pool\.member\.down/ }).check();
  await form.getByLabel('Zones').fill('hooks.test');
  await form.getByLabel('Description').fill('ops chat');
  expect(await serious(page)).toEqual([]);
  await form.getByRole('button', { name: 'Create webhook' }).click();

  // The secret, once, with a copy button.
  const secretBox = page.getByLabel(`Signing secret of ${hookUrl}`);
  await expect(secretBox).not.toHaveValue('');
  const secret = await secretBox.inputValue();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy secret' }).click();
  await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.getByRole('button', { name: 'Done, I have copied it' }).click();
  await expect(secretBox).toHaveCount(0);
  const row = page.getByTestId('webhook-row').filter({ hasText: hookUrl });
  await expect(row).toContainText('pool.member.down');
  await expect(row).toContainText('hooks.test');
  await page.reload();
  expect(await page.content()).not.toContain(secret);
  await page.setViewportSize(PHONE);
  expect(await scrollsSideways(page)).toBe(false);
  expect(await serious(page)).toEqual([]);

  // Send test: a ping, signed with the secret, delivered with 200 and shown so in the log.
  await row.getByRole('link', { name: `Deliveries of ${hookUrl}` }).click();
  await expect(page.getByRole('heading', { name: hookUrl, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Send test' }).click();
  const delivery = page.getByTestId('delivery-row').filter({ hasText: 'ping' });
  await expect(delivery).toContainText('Delivered', { timeout: 20_000 });
  await expect(delivery).toContainText('HTTP 200');
  const ping = received.find((r) => r.headers['x-zonedeck-event'] === 'ping');
  expect(ping).toBeDefined();
  expect(ping!.headers['x-zonedeck-signature']).toBe(`sha256=${createHmac('sha256', secret).update(ping!.body).digest('hex')}`);
  expect(JSON.parse(ping!.body)).toMatchObject({ event: 'ping' });
  expect(await scrollsSideways(page)).toBe(false);
  expect(await serious(page)).toEqual([]);
  await screenshot(page, 'webhook');

  // Redeliver sends the same event again.
  const pings = () => received.filter((r) => r.headers['x-zonedeck-event'] === 'ping').length;
  await delivery
    .first()
    .getByRole('button', { name: /^Redeliver ping/ })
    .click();
  await expect.poll(pings, { timeout: 20_000 }).toBe(2);
  await expect(page.getByTestId('delivery-row').filter({ hasText: 'ping' }).getByText('HTTP 200')).not.toHaveCount(0);

  // Edited: inactive, and no longer limited to a list of zones (null: every zone).
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('form', { name: 'Change the webhook' });
  await edit.getByLabel('Zones').fill('');
  await edit.getByRole('checkbox', { name: /^Active/ }).uncheck();
  await edit.getByRole('button', { name: 'Save webhook' }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.getByText('Inactive: gets no deliveries')).toBeVisible();
  const [saved] = (await api.get('/webhooks')) as Array<{ active: boolean; zones: string[] | null }>;
  expect(saved).toMatchObject({ active: false, zones: null });

  // Deleted after a confirmation.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
  expect(await serious(page, 'dialog')).toEqual([]);
  await dialog.getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page.getByText('No webhooks yet')).toBeVisible();
  expect(await api.get('/webhooks')).toEqual([]);
});
