import { execFileSync } from 'node:child_process';
import { expect, screenshot, test } from './support/fixtures';

const Y_ARGUMENT = /^hmac-sha256:([a-z0-9.-]+):([A-Za-z0-9+/]{43}=)$/;

test('a TSIG key made on its page signs real DNS queries, carries its scope, and is refused once revoked there', async ({ signedIn: page, server, user }) => {
  expect((await user.api.call('POST', '/domains', { name: `${user.username}.example` })).status).toBe(201);
  await page.getByRole('link', { name: 'TSIG keys' }).click();
  await expect(page.getByRole('heading', { name: 'TSIG keys', level: 1 })).toBeVisible();
  await expect(page.getByText('No TSIG keys yet')).toBeVisible();

  // The server's objection to one entry of the scope shows on that field, naming the entry.
  const name = `${user.username}-acme`;
  await page.getByLabel('Key name').fill(name);
  await page.getByLabel('Zones', { exact: true }).fill('not-a-zone');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('“not-a-zone”: must have at least two labels, like example.com')).toBeVisible();

  await page.getByLabel('Zones', { exact: true }).fill(`${user.username}.example`);
  await page.getByRole('button', { name: 'Limit to ACME challenges' }).click();
  await expect(page.getByLabel('Record types')).toHaveValue('TXT');
  await page.getByRole('button', { name: 'Create key' }).click();

  const box = page.getByLabel('The key, as nsupdate -y and dig -y take it');
  await expect(box).toHaveValue(Y_ARGUMENT);
  const y = await box.inputValue();
  expect(y).toContain(`:${name}:`);
  await screenshot(page, 'tsig-keys');

  // The key signs a real query; dig verifies our signed answer (it would say so if the MAC were wrong).
  const dig = () => execFileSync('dig', ['@127.0.0.1', '-p', String(server.dnsPort), '-y', y, `${user.username}.example`, 'SOA', '+time=2', '+tries=1'], { encoding: 'utf8' });
  await expect.poll(() => /status: NOERROR/.test(dig()), { timeout: 5000 }).toBe(true);
  expect(dig()).not.toMatch(/couldn't verify|could not be validated/i);

  await page.getByRole('button', { name: 'Done, I have copied it' }).click();
  await expect(box).toHaveCount(0);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(`Zones: ${user.username}.example`);
  await expect(row).toContainText('Names: _acme-challenge, _acme-challenge.*');
  await expect(row).toContainText('Types: TXT');
  await page.reload();
  expect(await page.content()).not.toContain(y.split(':')[2]);

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page
    .getByRole('dialog', { name: `Revoke “${name}”?` })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await expect(page.getByText(`Revoked “${name}”`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect.poll(() => /BADKEY/.test(dig()), { timeout: 5000 }).toBe(true);
});
