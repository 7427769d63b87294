import { dig } from './support/dns-checks';
import { expect, screenshot, test } from './support/fixtures';

test('DNSSEC: turning it on shows the DS to copy for the registrar; turning it off warns about the DS first', async ({ signedIn: page, user, server }) => {
  const zone = `${user.username}.test`;
  expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`/domains/${zone}`);
  await expect(page.getByTestId('ds-records')).toHaveCount(0);

  await page.getByRole('switch', { name: 'DNSSEC off' }).click();
  const panel = page.getByTestId('ds-records');
  await expect(panel).toBeVisible();
  const api = await user.api.get(`/domains/${zone}`);
  const ds = api.ds_records[0];
  await expect(panel.getByText(ds.ds)).toBeVisible();
  await expect(panel.getByText('13 (ECDSA P-256 with SHA-256)')).toBeVisible();
  // The name server publishes the key the DS was made from.
  expect(dig(server, zone, 'DNSKEY').map((a) => a.content.replace(/\s/g, ''))).toEqual([api.dnskey_records[0].split(' ').slice(3).join('')]);

  await panel.getByRole('button', { name: 'Copy DS record' }).click();
  await expect(page.getByText('DS record copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ds.ds);
  await panel.getByRole('button', { name: 'Copy Digest' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ds.digest);
  await screenshot(page, 'editor-dnssec-ds');

  // Turning it off asks first, and says why: the parent's DS must go before the signatures.
  await page.getByRole('switch', { name: 'DNSSEC on' }).click();
  const dialog = page.getByRole('dialog', { name: `Turn off DNSSEC for ${zone}?` });
  await expect(dialog.getByText('Remove the DS record at your registrar first')).toBeVisible();
  await screenshot(page, 'editor-dnssec-off-warning');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('switch', { name: 'DNSSEC on' })).toBeVisible();
  expect((await user.api.get(`/domains/${zone}`)).dnssec_enabled).toBe(true);

  await page.getByRole('switch', { name: 'DNSSEC on' }).click();
  await dialog.getByRole('button', { name: 'Turn off DNSSEC' }).click();
  await expect(page.getByRole('switch', { name: 'DNSSEC off' })).toBeVisible();
  await expect(page.getByTestId('ds-records')).toHaveCount(0);
  await expect.poll(async () => (await user.api.get(`/domains/${zone}`)).dnssec_enabled).toBe(false);
  await expect.poll(() => dig(server, zone, 'DNSKEY')).toEqual([]);
});
