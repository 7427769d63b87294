import { expect, screenshot, test } from './support/fixtures';

test("Transfers: a zone's own NOTIFY targets, transfer networks and key are saved, shown after a reload, and a refused key is named beside its field", async ({ signedIn: page, user }) => {
  const zone = `${user.username}.test`;
  expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
  expect((await user.api.call('POST', '/tsig-keys', { name: `${user.username}-xfr` })).status).toBe(201);
  await page.goto(`/domains/${zone}`);
  const form = page.getByRole('form', { name: 'Transfers' });
  await expect(form).toBeVisible();

  // A key that is not the user's: the server's refusal appears under the key's field, nothing is saved.
  await form.getByLabel('Transfer key').fill('nobody-holds-this');
  await form.getByRole('button', { name: 'Save transfers' }).click();
  await expect(form.getByText("Is not the name of a TSIG key this zone's owner holds")).toBeVisible();
  expect((await user.api.get(`/domains/${zone}`)).transfer_tsig_key).toBeNull();

  // A bad line is caught before anything is sent, under its field.
  await form.getByLabel('Also notify').fill('ns1.example.net:53');
  await form.getByRole('button', { name: 'Save transfers' }).click();
  await expect(form.getByText(/is not an IP address and port/)).toBeVisible();

  await form.getByLabel('Also notify').fill('192.0.2.1:53\n[2001:DB8::1]:5353');
  await form.getByLabel('Allow transfers from').fill('198.51.100.0/24\n2001:db8::/32');
  await form.getByLabel('Transfer key').fill(`${user.username}-xfr`);
  await form.getByRole('button', { name: 'Save transfers' }).click();
  await expect(page.getByText('Transfer settings saved')).toBeVisible();
  await expect
    .poll(async () => {
      const d = await user.api.get(`/domains/${zone}`);
      return [d.also_notify, d.allow_transfer, d.transfer_tsig_key];
    })
    .toEqual([['192.0.2.1:53', '[2001:db8::1]:5353'], ['198.51.100.0/24', '2001:db8::/32'], `${user.username}-xfr`]);

  await page.reload();
  const again = page.getByRole('form', { name: 'Transfers' });
  await expect(again.getByLabel('Also notify')).toHaveValue('192.0.2.1:53\n[2001:db8::1]:5353');
  await expect(again.getByLabel('Allow transfers from')).toHaveValue('198.51.100.0/24\n2001:db8::/32');
  await expect(again.getByLabel('Transfer key')).toHaveValue(`${user.username}-xfr`);
  await screenshot(page, 'editor-transfers');
});
