import { dig, expectNotServed, expectServed } from './support/dns-checks';
import { expect, screenshot, seed, test, type TestUser } from './support/fixtures';
import type { Page } from '@playwright/test';

// One zone per test: zone names are unique across users.
let ZONE = '';

async function openEditor(page: Page, user: TestUser): Promise<void> {
  ZONE = `${user.username}.test`;
  expect((await user.api.call('POST', '/domains', { name: ZONE })).status).toBe(201);
  await page.goto(`/domains/${ZONE}`);
  await expect(page.getByRole('heading', { name: ZONE, level: 1 })).toBeVisible();
  await expect(page.getByTestId('records-count')).toHaveText('2 records');
}

test('SOA settings: an out-of-range value is refused on its field, a valid one is saved and bumps the serial', async ({ signedIn: page, user, server }) => {
  await openEditor(page, user);
  const before = await user.api.get(`/domains/${ZONE}`);
  const retry = page.getByLabel('Retry (seconds)');
  await expect(retry).toHaveValue('3600');
  await expect(page.getByText('Allowed: 600–3,600', { exact: false })).toBeVisible();

  await retry.fill('5');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Must be a whole number of seconds from 600 to 3600')).toBeVisible();
  await expect(retry).toBeFocused();
  await screenshot(page, 'editor-soa-error');
  expect((await user.api.get(`/domains/${ZONE}`)).retry_interval).toBe(3600);

  // A rule between two fields: retry may not exceed refresh.
  await retry.fill('1800');
  await page.getByLabel('Refresh (seconds)').fill('900');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Must not be greater than refresh_interval (900)')).toBeVisible();

  await page.getByLabel('Refresh (seconds)').fill('7200');
  await page.getByLabel('Minimum TTL (seconds)').fill('300');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Zone settings saved')).toBeVisible();
  const after = await user.api.get(`/domains/${ZONE}`);
  expect(after).toMatchObject({ retry_interval: 1800, refresh_interval: 7200, minimum_ttl: 300 });
  expect(after.serial_number).toBeGreaterThan(before.serial_number);
  await expect(page.getByTestId('serial')).toHaveText(String(after.serial_number));
  // The name server answers with the new SOA: serial, refresh, retry, expire, minimum.
  await expect.poll(() => dig(server, ZONE, 'SOA')[0]?.content.split(/\s+/).slice(2).join(' ')).toBe(`${after.serial_number} 7200 1800 1209600 300`);

  await page.getByRole('switch', { name: 'DNSSEC off' }).click();
  await expect(page.getByRole('switch', { name: 'DNSSEC on' })).toHaveAttribute('aria-checked', 'true');
  await expect.poll(async () => (await user.api.get(`/domains/${ZONE}`)).dnssec_enabled).toBe(true);
});

// On a desktop and on a 390×844 phone alike: record rows, forms and buttons are measured, not assumed.
for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`records at ${width}×${height}: add, edit and delete in place, each checked through the API and with dig`, async ({ signedIn: page, user, server }) => {
    await page.setViewportSize({ width, height });
    expect(server.dnsPort, 'the e2e server runs DNS too').not.toBeNull();
    await openEditor(page, user);
    await page.getByRole('button', { name: '+ Add record' }).click();
    const add = page.getByRole('form', { name: 'Add a record' });

    // A: the registry's field and hint; then a name and TTL.
    await add.getByLabel('Name').fill('www');
    await add.getByLabel('IPv4 address').fill('192.0.2.10');
    await add.getByLabel('TTL (seconds)').fill('600');
    await add.getByRole('button', { name: 'Add record' }).click();
    await expect(page.getByText(`Added www.${ZONE} A`)).toBeVisible();
    await expectServed(user.api, server, ZONE, { name: 'www', record_type: 'A', content: '192.0.2.10', ttl: '600' });

    // MX: two fields from the registry, joined into one content.
    await add.getByLabel('Type').selectOption('MX');
    await expect(add.getByLabel('Preference')).toBeVisible();
    await add.getByLabel('Name').fill('@');
    await add.getByLabel('Preference').fill('10');
    await add.getByLabel('Mail server').fill('Mail.Example.NET.');
    await add.getByRole('button', { name: 'Add record' }).click();
    await expect(page.getByText(`Added ${ZONE} MX`)).toBeVisible();
    await expectServed(user.api, server, ZONE, { name: '@', record_type: 'MX', content: '10 mail.example.net' });

    // A client-side rule: bad content shows on the field and nothing is sent.
    await add.getByLabel('Type').selectOption('AAAA');
    await add.getByLabel('Name').fill('v6');
    await add.getByLabel('IPv6 address').fill('2001:db8::zz');
    await add.getByRole('button', { name: 'Add record' }).click();
    await expect(add.getByText('Must be an IPv6 address such as 2001:db8::1')).toBeVisible();
    await add.getByLabel('IPv6 address').fill('2001:DB8:0::1');
    await add.getByRole('button', { name: 'Add record' }).click();
    await expectServed(user.api, server, ZONE, { name: 'v6', record_type: 'AAAA', content: '2001:db8::1' });
    await expect(page.getByTestId('records-count')).toHaveText('5 records');
    await screenshot(page, 'editor');

    // Edit www in place.
    await page.getByRole('button', { name: `Edit www.${ZONE} A` }).click();
    const edit = page.getByRole('form', { name: `Edit www.${ZONE} A` });
    await edit.getByLabel('IPv4 address').fill('192.0.2.20');
    await screenshot(page, 'editor-edit-row');
    await edit.getByLabel('IPv4 address').press('Enter');
    await expect(page.getByText(`Saved www.${ZONE} A`)).toBeVisible();
    // Keyboard users land back on the row they edited.
    await expect(page.getByRole('button', { name: `Edit www.${ZONE} A` })).toBeFocused();
    await expectServed(user.api, server, ZONE, { name: 'www', record_type: 'A', content: '192.0.2.20', ttl: '600' });
    await expectNotServed(user.api, server, ZONE, { name: 'www', record_type: 'A', content: '192.0.2.10' });

    // Delete asks for a second click.
    await page.getByRole('button', { name: `Delete v6.${ZONE} AAAA` }).click();
    await page.getByRole('button', { name: `Confirm delete v6.${ZONE} AAAA` }).click();
    await expect(page.getByText(`Deleted v6.${ZONE} AAAA`)).toBeVisible();
    await expectNotServed(user.api, server, ZONE, { name: 'v6', record_type: 'AAAA', content: '2001:db8::1' });
    await expect(page.getByTestId('records-count')).toHaveText('4 records');

    // Filter by name and type, and sort.
    await page.getByLabel('Filter by name').fill('www');
    await expect(page.getByTestId('records-count')).toHaveText('1 of 4 records');
    await page.getByLabel('Filter by name').fill('');
    await page.getByRole('search', { name: 'Filter records' }).getByLabel('Type').selectOption('NS');
    await expect(page.getByTestId('records-count')).toHaveText('2 of 4 records');
    await expect(page.getByRole('row').filter({ hasText: 'managed' })).toHaveCount(2);
    // Nothing makes the page scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test('a change the server refuses rolls back and shows its message on the field', async ({ signedIn: page, user, server }) => {
  await openEditor(page, user);
  await user.api.call('POST', `/domains/${ZONE}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1' });
  await page.reload();
  await expect(page.getByTestId('records-count')).toHaveText('3 records');
  await page.getByRole('button', { name: '+ Add record' }).click();
  const add = page.getByRole('form', { name: 'Add a record' });
  await add.getByLabel('Name').fill('www');
  await add.getByLabel('Type').selectOption('CNAME');
  await add.getByLabel('Target').fill('elsewhere.example.net');
  await add.getByRole('button', { name: 'Add record' }).click();
  // CNAME exclusivity is the server's rule: the optimistic row goes away and the form says why.
  await expect(add.getByText(`A records exist at www.${ZONE}; a CNAME must be the only record at its name`, { exact: false })).toBeVisible();
  await expect(add.getByLabel('Target')).toHaveValue('elsewhere.example.net');
  await expect(page.getByTestId('records-count')).toHaveText('3 records');
  await screenshot(page, 'editor-rollback');
  await expectNotServed(user.api, server, ZONE, { name: 'www', record_type: 'CNAME', content: 'elsewhere.example.net' });

  // Editing: the row gets its old values back and reopens with the message.
  await user.api.call('POST', `/domains/${ZONE}/records`, { name: 'alias', record_type: 'CNAME', content: 'target.example.net' });
  await page.reload();
  await page.getByRole('button', { name: `Edit www.${ZONE} A` }).click();
  const edit = page.getByRole('form', { name: `Edit www.${ZONE} A` });
  await edit.getByLabel('Name').fill('alias');
  await edit.getByRole('button', { name: 'Save record' }).click();
  await expect(edit.getByText(`alias.${ZONE} has a CNAME record`, { exact: false })).toBeVisible();
  await expect(page.getByText(`Could not save www.${ZONE}`, { exact: false })).toBeVisible();
  await edit.getByLabel('Name').press('Escape');
  await expect(edit).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: '192.0.2.1' })).toContainText('www');
  await expectServed(user.api, server, ZONE, { name: 'www', record_type: 'A', content: '192.0.2.1' });
});

test('A records suggest the registered IPs and warn outside them or in an inactive range', async ({ signedIn: page, user, server }) => {
  seed(server, { user: user.username, ips: [{ cidr: '198.51.100.0/24' }, { cidr: '203.0.113.0/24', active: false }] });
  await openEditor(page, user);
  await page.getByRole('button', { name: '+ Add record' }).click();
  const add = page.getByRole('form', { name: 'Add a record' });
  const address = add.getByLabel('IPv4 address');
  const options = await add.locator('datalist option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
  expect(options).toEqual(['198.51.100.0']);
  await address.fill('198.51.100.7');
  await expect(add.getByText('In your registered range 198.51.100.0/24.')).toBeVisible();
  await address.fill('192.0.2.1');
  await expect(add.getByText('This address is not in your registered IPs.')).toBeVisible();
  await address.fill('203.0.113.9');
  await expect(add.getByText('This address is in 203.0.113.0/24, which is inactive.')).toBeVisible();
  await screenshot(page, 'editor-ip-warning');
  // A warning, not a refusal.
  await add.getByLabel('Name').fill('legacy');
  await add.getByRole('button', { name: 'Add record' }).click();
  await expectServed(user.api, server, ZONE, { name: 'legacy', record_type: 'A', content: '203.0.113.9' });
});

test('disable and enable a record: greyed and not served, then served again, each a line in the history', async ({ signedIn: page, user, server }) => {
  await openEditor(page, user);
  expect((await user.api.call('POST', `/domains/${ZONE}/records`, { name: 'www', record_type: 'A', content: '192.0.2.60' })).status).toBe(200);
  await page.reload();
  const label = `www.${ZONE} A 192.0.2.60`;
  await page.getByRole('button', { name: `Disable ${label}` }).click();
  await expect(page.getByText(`Disabled www.${ZONE} A: kept, no longer served`)).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: '192.0.2.60' });
  await expect(row).toHaveClass(/record-disabled/);
  await expect(row.getByText('disabled', { exact: true })).toBeVisible();
  await screenshot(page, 'editor-disabled-record');
  await expect.poll(() => dig(server, `www.${ZONE}`, 'A')).toEqual([]);
  expect((await user.api.records(ZONE, 'name=www')).find((r) => r.content === '192.0.2.60')).toMatchObject({ disabled: true });

  await page.getByRole('button', { name: `Enable ${label}` }).click();
  await expect(page.getByText(`Enabled www.${ZONE} A: served again`)).toBeVisible();
  await expect(row).not.toHaveClass(/record-disabled/);
  await expectServed(user.api, server, ZONE, { name: 'www', record_type: 'A', content: '192.0.2.60' });

  await page.goto(`/domains/${ZONE}/history`);
  await expect(page.getByText('+ www 3600 IN A 192.0.2.60 ; disabled').first()).toBeVisible();
});

test('Escape in the add form closes it and gives focus back to "+ Add record"', async ({ signedIn: page, user }) => {
  await openEditor(page, user);
  const open = page.getByRole('button', { name: '+ Add record' });
  await open.click();
  await expect(page.getByRole('form', { name: 'Add a record' }).getByLabel('Name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('form', { name: 'Add a record' })).toHaveCount(0);
  await expect(open).toBeFocused();
});
