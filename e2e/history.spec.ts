/**
 * Change sets in the dashboard: History shows who changed what; a revert after
 * its preview brings records back; a stale editor is refused (412) and says who changed the
 * zone instead of overwriting; several records go in one change set. Each change is checked
 * through the API (CLI-minted token) and with dig against this run's DNS port.
 */
import type { Page } from '@playwright/test';
import { expectNotServed, expectServed } from './support/dns-checks';
import { expect, screenshot, test, type TestUser } from './support/fixtures';

// One zone per test: zone names are unique across users.
async function newZone(user: TestUser, records: Array<{ name: string; record_type: string; content: string; ttl?: number }>): Promise<string> {
  const zone = `${user.username}.test`;
  expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
  for (const r of records) expect((await user.api.call('POST', `/domains/${zone}/records`, r)).status).toBe(200);
  return zone;
}

async function openEditor(page: Page, zone: string, count: number): Promise<void> {
  await page.goto(`/domains/${zone}`);
  await expect(page.getByRole('heading', { name: zone, level: 1 })).toBeVisible();
  await expect(page.getByTestId('records-count')).toHaveText(`${count} records`);
}

const changes = (page: Page) => page.locator('ol.changes > li.change');

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`at ${width}×${height}: an edit shows in History as a dashboard change with +/- lines; reverting it after the preview brings the record back`, async ({ signedIn: page, user, server }) => {
    await page.setViewportSize({ width, height });
    const zone = await newZone(user, [{ name: 'www', record_type: 'A', content: '192.0.2.10', ttl: 300 }]);
    await openEditor(page, zone, 3);

    await page.getByRole('button', { name: `Edit www.${zone} A` }).click();
    const edit = page.getByRole('form', { name: `Edit www.${zone} A` });
    await edit.getByLabel('IPv4 address').fill('192.0.2.20');
    await edit.getByLabel('IPv4 address').press('Enter');
    await expect(page.getByText(`Saved www.${zone} A`)).toBeVisible();
    await expectServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.20', ttl: '300' });

    await page
      .getByRole('navigation', { name: `Views of ${zone}` })
      .getByRole('link', { name: 'History' })
      .click();
    await expect(page).toHaveURL(new RegExp(`/domains/${zone}/history$`));
    await expect(page.getByTestId('changes-count')).toHaveText('3 changes');
    const newest = changes(page).first();
    await expect(newest).toContainText(`${user.username} (dashboard session)`);
    await expect(newest).toContainText('Dashboard');
    await expect(newest.getByRole('listitem')).toHaveText(['- www 300 IN A 192.0.2.10', '+ www 300 IN A 192.0.2.20']);
    // The record's creation came through the API with the CLI-minted token.
    const tokenId = (await user.api.get(`/domains/${zone}/changes?source=api`))[0].actor.credential.split(':')[1];
    await expect(changes(page).nth(1)).toContainText(`${user.username} (API token #${tokenId})`);
    await expect(changes(page).nth(1).getByRole('listitem')).toHaveText(['+ www 300 IN A 192.0.2.10']);
    await expect(changes(page).nth(2)).toContainText('Zone created');
    await screenshot(page, 'history');

    // Filters live in the URL: a link opens the same view.
    await page.getByRole('search', { name: 'Filter the history' }).getByLabel('Source').selectOption('dashboard');
    await expect(page).toHaveURL(/source=dashboard/);
    await expect(page.getByTestId('changes-count')).toHaveText('1 change match');
    await page.goto(`/domains/${zone}/history?source=api&user=${user.username}`);
    await expect(page.getByTestId('changes-count')).toHaveText('2 changes match');
    await page.goto(`/domains/${zone}/history?user=nobody-else`);
    await expect(page.getByText('No change matches these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Show every change' }).click();
    await expect(page.getByTestId('changes-count')).toHaveText('3 changes');

    // Revert the dashboard edit: first the preview of what would be applied.
    const [dashboardChange] = await user.api.get(`/domains/${zone}/changes?source=dashboard`);
    await page.getByRole('button', { name: `Revert change #${dashboardChange.id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Revert change #${dashboardChange.id}?` });
    await expect(dialog.getByRole('list', { name: 'Records the revert would apply' }).getByRole('listitem')).toHaveText(['- www 300 IN A 192.0.2.20', '+ www 300 IN A 192.0.2.10']);
    await dialog.getByLabel('Comment (optional)').fill('back to .10');
    await screenshot(page, 'history-revert-preview');
    // The preview changed nothing.
    await expectServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.20' });
    await dialog.getByRole('button', { name: 'Confirm revert' }).click();
    await expect(page.getByText(`Reverted change #${dashboardChange.id}`)).toBeVisible();
    await expect(dialog).toBeHidden();

    await expectServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.10', ttl: '300' });
    await expectNotServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.20' });
    const [revert] = await user.api.get(`/domains/${zone}/changes`);
    expect(revert).toMatchObject({ source: 'revert', comment: 'back to .10', actor: { username: user.username, credential: 'session' } });
    await expect(page.getByTestId('changes-count')).toHaveText('4 changes');
    await expect(changes(page).first().locator('.badge')).toHaveText('Revert');
    await expect(changes(page).first()).toContainText('back to .10');

    // Reverting the same change again: what it changed is no longer as it left it.
    await page.getByRole('button', { name: `Revert change #${dashboardChange.id}` }).click();
    await expect(dialog.getByRole('alert')).toContainText('This change cannot be reverted');
    await expect(dialog.getByRole('alert')).toContainText('www A changed since');
    // The RRset it names, with the server's reason.
    await expect(dialog.getByRole('alert').getByRole('listitem')).toHaveText(/^www A: 192\.0\.2\.(10 has been added again|20 \(TTL 300\) is no longer there)/);
    await expect(dialog.getByRole('button', { name: 'Confirm revert' })).toBeDisabled();
    await screenshot(page, 'history-revert-refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The editor shows the reverted record.
    await page.getByRole('link', { name: 'Records and settings' }).click();
    await expect(page.getByRole('row').filter({ hasText: '192.0.2.10' })).toContainText('www');
    await expect(page.getByTestId('serial')).toHaveText(String(revert.serial_after));
  });
}

test('a stale editor: its save is refused with who changed the zone, never an overwrite; Reload shows the new data and keeps the draft', async ({ signedIn: page, user, server }) => {
  const zone = await newZone(user, [{ name: 'www', record_type: 'A', content: '192.0.2.1', ttl: 300 }]);
  await openEditor(page, zone, 3);
  const [www] = await user.api.records(zone, 'name=www');

  // Behind the editor's back, through the API.
  expect((await user.api.call('PUT', `/domains/${zone}/records/${www!.id}`, { content: '192.0.2.9' })).status).toBe(200);
  const { serial_number: serial } = await user.api.get(`/domains/${zone}`);

  await page.getByRole('button', { name: `Edit www.${zone} A` }).click();
  const edit = page.getByRole('form', { name: `Edit www.${zone} A` });
  await expect(edit.getByLabel('IPv4 address')).toHaveValue('192.0.2.1');
  await edit.getByLabel('IPv4 address').fill('192.0.2.5');
  await edit.getByRole('button', { name: 'Save record' }).click();

  const banner = page.getByTestId('zone-conflict');
  await expect(banner).toContainText(`${zone} was changed by someone else since you loaded it`);
  await expect(banner).toContainText(new RegExp(`${user.username} changed ${zone.replaceAll('.', '\\.')} (\\d+ s ago|just now) via the API: - www A 192\\.0\\.2\\.1, \\+ www A 192\\.0\\.2\\.9`));
  // The draft is still there to save again.
  await expect(edit.getByLabel('IPv4 address')).toHaveValue('192.0.2.5');
  // The banner stays in view below the top bar when scrolled; at the top it sits under the tabs.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'editor-conflict');
  // Not an overwrite: the API's change stands.
  await expectServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.9' });
  await expectNotServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.5' });
  expect((await user.api.get(`/domains/${zone}`)).serial_number).toBe(serial);

  await banner.getByRole('button', { name: 'Reload' }).click();
  await expect(banner).toBeHidden();
  await expect(page.getByTestId('serial')).toHaveText(String(serial));
  await expect(edit.getByLabel('IPv4 address')).toHaveValue('192.0.2.5');
  await edit.getByLabel('IPv4 address').press('Escape');
  await expect(page.getByRole('row').filter({ hasText: '192.0.2.9' })).toContainText('www');

  // Now the editor is current: the same edit is saved.
  await page.getByRole('button', { name: `Edit www.${zone} A` }).click();
  await edit.getByLabel('IPv4 address').fill('192.0.2.5');
  await edit.getByLabel('IPv4 address').press('Enter');
  await expect(page.getByText(`Saved www.${zone} A`)).toBeVisible();
  await expectServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.5' });

  // The SOA form is guarded the same way, and after Reload sends only the user's own field.
  expect((await user.api.call('PUT', `/domains/${zone}`, { minimum_ttl: 600 })).status).toBe(200);
  await page.getByLabel('Retry (seconds)').fill('1800');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(banner).toContainText('via the API: Minimum TTL 3600 → 600');
  expect(await user.api.get(`/domains/${zone}`)).toMatchObject({ retry_interval: 3600, minimum_ttl: 600 });
  await banner.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByLabel('Minimum TTL (seconds)')).toHaveValue('600');
  await expect(page.getByLabel('Retry (seconds)')).toHaveValue('1800');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Zone settings saved')).toBeVisible();
  expect(await user.api.get(`/domains/${zone}`)).toMatchObject({ retry_interval: 1800, minimum_ttl: 600 });
});

test('several records selected and deleted in one change set, shown in History and gone in dig', async ({ signedIn: page, user, server }) => {
  const zone = await newZone(user, [
    { name: 'old-a', record_type: 'A', content: '192.0.2.1' },
    { name: 'old-b', record_type: 'A', content: '192.0.2.2' },
    { name: 'old-b', record_type: 'A', content: '192.0.2.3' },
    { name: 'keep', record_type: 'A', content: '192.0.2.4' },
  ]);
  await openEditor(page, zone, 6);
  // The managed apex NS rows cannot be chosen.
  await expect(page.getByRole('row').filter({ hasText: 'managed' }).getByRole('checkbox')).toHaveCount(0);

  // "Select all shown" under a filter takes the filtered rows only.
  await page.getByLabel('Filter by name').fill('old-b');
  await expect(page.getByTestId('records-count')).toHaveText('2 of 6 records');
  await page.getByRole('checkbox', { name: 'Select all shown records' }).check();
  await page.getByLabel('Filter by name').fill('');
  await expect(page.getByRole('region', { name: 'Selected records' })).toContainText('2 records selected');
  await expect(page.getByRole('checkbox', { name: 'Select all shown records' })).toHaveJSProperty('indeterminate', true);
  // And by keyboard.
  await page.getByRole('checkbox', { name: `Select old-a.${zone} A 192.0.2.1` }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('region', { name: 'Selected records' })).toContainText('3 records selected');

  await page.getByRole('button', { name: 'Delete 3 records' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete 3 records from ${zone}?` });
  await expect(dialog.getByRole('listitem')).toHaveText(['- old-a 3600 IN A 192.0.2.1', '- old-b 3600 IN A 192.0.2.2', '- old-b 3600 IN A 192.0.2.3']);
  await dialog.getByLabel('Comment (optional)').fill('tidy up');
  await screenshot(page, 'editor-multi-delete');
  const before = (await user.api.get(`/domains/${zone}`)).serial_number;
  await dialog.getByRole('button', { name: 'Delete 3 records' }).click();
  await expect(page.getByText(/Deleted 3 records in one change/)).toBeVisible();
  await expect(page.getByTestId('records-count')).toHaveText('3 records');

  for (const [name, content] of [
    ['old-a', '192.0.2.1'],
    ['old-b', '192.0.2.2'],
    ['old-b', '192.0.2.3'],
  ] as const) {
    await expectNotServed(user.api, server, zone, { name, record_type: 'A', content });
  }
  await expectServed(user.api, server, zone, { name: 'keep', record_type: 'A', content: '192.0.2.4' });
  // One change set, one serial step.
  const [cs] = await user.api.get(`/domains/${zone}/changes`);
  expect(cs).toMatchObject({ source: 'dashboard', comment: 'tidy up', removed_count: 3, added_count: 0, serial_before: before });
  expect((await user.api.get(`/domains/${zone}`)).serial_number).toBe(cs.serial_after);

  await page.getByRole('link', { name: 'History' }).click();
  await expect(changes(page).first()).toContainText('tidy up');
  await expect(changes(page).first().getByRole('listitem')).toHaveText(['- old-a 3600 IN A 192.0.2.1', '- old-b 3600 IN A 192.0.2.2', '- old-b 3600 IN A 192.0.2.3']);
});

test('a change set longer than the list carries shows "and N more" and loads in full on demand', async ({ signedIn: page, user }) => {
  const zone = await newZone(user, []);
  // 1,001 records in one change set: the list carries 1,000 of them, GET …/changes/:id all.
  const records = Array.from({ length: 1001 }, (_, i) => `10.${Math.floor(i / 250)}.${i % 250}.1`);
  const patch = await user.api.call('PATCH', `/domains/${zone}/rrsets`, { rrsets: [{ name: 'many', record_type: 'A', changetype: 'ADD', records }], comment: 'bulk load' });
  expect(patch.status).toBe(200);

  await page.goto(`/domains/${zone}/history`);
  const newest = changes(page).first();
  await expect(newest).toContainText('bulk load');
  await expect(newest.locator('.diff li')).toHaveCount(12);
  await expect(newest).toContainText('and 989 more');
  await newest.getByRole('button', { name: 'Show all 1,001 records' }).click();
  await expect(newest.locator('.diff li')).toHaveCount(1001);
  await expect(newest.locator('.diff li').last()).toHaveText(/^\+ many 3600 IN A 10\.\d+\.\d+\.1$/);
  await newest.getByRole('button', { name: 'Show fewer' }).click();
  await expect(newest.locator('.diff li')).toHaveCount(12);
});
