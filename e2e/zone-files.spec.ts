/**
 * Zone files in the dashboard: Export downloads a master file that BIND's
 * named-checkzone accepts; Import shows a bad line's message by its line number and changes
 * nothing, previews the fixed file as +/- lines, and applies exactly that preview (If-Match
 * its serial; a zone changed in between is refused with who changed it). Every change is
 * checked through the API (CLI-minted token) and with dig against this run's DNS port.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { dig, expectNotServed, expectServed } from './support/dns-checks';
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

const diff = (page: Page) => page.getByRole('list', { name: 'Records the import would apply' }).getByRole('listitem');

test('Export downloads <zone>.zone, a master file that named-checkzone accepts', async ({ signedIn: page, user }, testInfo) => {
  const zone = await newZone(user, [
    { name: 'www', record_type: 'A', content: '192.0.2.10', ttl: 300 },
    { name: 'www', record_type: 'AAAA', content: '2001:db8::10' },
    { name: '@', record_type: 'MX', content: '10 mail.example.net' },
    { name: 'txt', record_type: 'TXT', content: 'v=spf1 include:_spf.example.net -all "quoted"' },
    { name: '_sip._tcp', record_type: 'SRV', content: '10 5 5060 sip.example.net' },
    { name: 'alias', record_type: 'CNAME', content: 'www.example.net' },
  ]);
  await openEditor(page, zone, 8);
  const { serial_number: serial } = await user.api.get(`/domains/${zone}`);
  await screenshot(page, 'zone-export');

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export zone file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${zone}.zone`);
  const file = testInfo.outputPath(`${zone}.zone`);
  await download.saveAs(file);
  // The page stayed where it was: the link downloads, it does not navigate.
  await expect(page).toHaveURL(new RegExp(`/domains/${zone.replaceAll('.', '\\.')}$`));

  const text = fs.readFileSync(file, 'utf8');
  expect(text).toMatch(new RegExp(`^\\$ORIGIN ${zone.replaceAll('.', '\\.')}\\.\\n`));
  expect(text).toMatch(/^www\s+300\s+IN\s+A\s+192\.0\.2\.10$/m);
  expect(text).toMatch(/^txt\s+\d+\s+IN\s+TXT\s+"v=spf1 include:_spf\.example\.net -all .*quoted.*"$/m);
  const check = spawnSync('named-checkzone', ['-i', 'local', zone, file], { encoding: 'utf8' });
  expect(check.error, 'named-checkzone must be installed: apt-get install bind9-utils').toBeUndefined();
  expect(check.status, check.stdout + check.stderr).toBe(0);
  expect(check.stdout).toContain(`loaded serial ${serial}\nOK`);
});

test('Import: a bad line shows its message and changes nothing; fixed, the preview shows +/- lines and Apply serves exactly them', async ({ signedIn: page, user, server }) => {
  const zone = await newZone(user, [{ name: 'old', record_type: 'A', content: '192.0.2.50', ttl: 300 }]);
  const before = await user.api.get(`/domains/${zone}`);
  const file = (wwwAddress: string) =>
    [
      `$ORIGIN ${zone}.`,
      '$TTL 300',
      '@        IN SOA ns1.example.net. hostmaster.example.net. ( 2019010101 7200 900 1209600 300 )',
      "@        IN NS  ns1.example.net.   ; the apex NS set stays zonedeck's",
      'www      IN A   192.0.2.10',
      `www      IN A   ${wwwAddress}`,
      '@        IN MX  10 mail',
      'mail 3600 IN A  192.0.2.25',
      'txt      IN TXT "v=spf1 include:_spf.example.net" " -all"',
      '',
    ].join('\n');

  await openEditor(page, zone, 3);
  await page
    .getByRole('navigation', { name: `Views of ${zone}` })
    .getByRole('link', { name: 'Import' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/domains/${zone.replaceAll('.', '\\.')}/import$`));
  // Replace is the default, and says what it removes.
  await expect(page.getByRole('radio', { name: /Replace/ })).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'Records that are not in the file are removed' })).toContainText('apex NS set');

  const text = page.getByRole('textbox', { name: 'Zone file' });
  await text.fill(file('192.0.2.300'));
  await page.getByRole('button', { name: 'Preview' }).click();
  const errors = page.getByRole('list', { name: 'Errors by line' }).getByRole('listitem');
  await expect(page.getByRole('alert').filter({ hasText: 'The file has an error; nothing was changed' })).toBeVisible();
  await expect(errors).toHaveText([/^Line 6 A: must be an IPv4 address/]);
  await expect(page.locator('.zone-gutter-error')).toHaveText('6');
  // The line number selects that line in the text box.
  await errors.getByRole('button', { name: 'Line 6' }).click();
  await expect(text).toBeFocused();
  expect(await text.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe('www      IN A   192.0.2.300');
  await screenshot(page, 'zone-import-error');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'zone-import-narrow');
  await page.setViewportSize({ width: 1280, height: 720 });
  // Nothing changed: not the records, not the serial, not the history.
  expect((await user.api.get(`/domains/${zone}`)).serial_number).toBe(before.serial_number);
  expect((await user.api.get(`/domains/${zone}/changes`)).map((c: { source: string }) => c.source)).toEqual(['api', 'api']);
  await expectServed(user.api, server, zone, { name: 'old', record_type: 'A', content: '192.0.2.50' });
  await expectNotServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.10' });

  // Fixed: the preview shows what the import would apply, and still changes nothing.
  await text.fill(file('192.0.2.11'));
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(diff(page)).toHaveText([
    `+ @ 300 IN MX 10 mail.${zone}.`,
    '+ mail 3600 IN A 192.0.2.25',
    '- old 300 IN A 192.0.2.50',
    // The file's two character-strings stay two.
    '+ txt 300 IN TXT "v=spf1 include:_spf.example.net" " -all"',
    '+ www 300 IN A 192.0.2.10',
    '+ www 300 IN A 192.0.2.11',
  ]);
  await expect(page.getByRole('list', { name: 'Settings the import would apply' }).getByRole('listitem')).toHaveText(['Refresh 10800 → 7200', 'Retry 3600 → 900', 'Minimum TTL 3600 → 300']);
  await expect(page.getByTestId('import-summary')).toHaveText('Replacing the records with this file adds 5 records, removes 1 record and changes 3 settings.');
  await expect(page.getByRole('list', { name: 'Lines not imported' }).getByRole('listitem')).toHaveText([/^Line 4 @ NS .*managed/]);
  await expect(page.locator('.zone-gutter-error')).toHaveCount(0);
  await screenshot(page, 'zone-import-preview');
  expect((await user.api.get(`/domains/${zone}`)).serial_number).toBe(before.serial_number);
  await expectNotServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.10' });

  await page.getByRole('button', { name: 'Apply import' }).click();
  await expect(page.getByText(new RegExp(`^Imported into ${zone.replaceAll('.', '\\.')} \\(change #\\d+\\): adds 5 records, removes 1 record and changes 3 settings$`))).toBeVisible();
  // Back in the editor, which shows the zone as the import left it.
  await expect(page).toHaveURL(new RegExp(`/domains/${zone.replaceAll('.', '\\.')}$`));
  await expect(page.getByTestId('records-count')).toHaveText('7 records');
  await expect(page.getByRole('row').filter({ hasText: '192.0.2.11' })).toContainText('www');
  await expect(page.getByRole('row').filter({ hasText: '192.0.2.50' })).toHaveCount(0);
  await expect(page.getByLabel('Refresh (seconds)')).toHaveValue('7200');
  await screenshot(page, 'zone-import-applied');

  const [change] = await user.api.get(`/domains/${zone}/changes`);
  expect(change).toMatchObject({ source: 'import', actor: { username: user.username, credential: 'session' }, serial_before: before.serial_number, added_count: 5, removed_count: 1 });
  await expect(page.getByTestId('serial')).toHaveText(String(change.serial_after));
  expect(await user.api.get(`/domains/${zone}`)).toMatchObject({ serial_number: change.serial_after, refresh_interval: 7200, retry_interval: 900, expire_interval: 1209600, minimum_ttl: 300 });
  await expectServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.10', ttl: '300' });
  await expectServed(user.api, server, zone, { name: 'www', record_type: 'A', content: '192.0.2.11', ttl: '300' });
  await expectServed(user.api, server, zone, { name: 'mail', record_type: 'A', content: '192.0.2.25', ttl: '3600' });
  await expectServed(user.api, server, zone, { name: '@', record_type: 'MX', content: `10 mail.${zone}`, ttl: '300' });
  await expectServed(user.api, server, zone, { name: 'txt', record_type: 'TXT', content: '"v=spf1 include:_spf.example.net" " -all"' });
  await expectNotServed(user.api, server, zone, { name: 'old', record_type: 'A', content: '192.0.2.50' });
  // The file's apex NS was not taken.
  await expectNotServed(user.api, server, zone, { name: '@', record_type: 'NS', content: 'ns1.example.net' });
  expect(dig(server, zone, 'NS').length).toBeGreaterThan(0);
});

test('Import by upload, merged; a zone changed after the preview is refused with who changed it, and the fresh preview is what applies', async ({ signedIn: page, user, server }) => {
  const zone = await newZone(user, [{ name: 'keep', record_type: 'A', content: '192.0.2.1', ttl: 300 }]);
  await page.goto(`/domains/${zone}/import`);
  const upload = page.getByLabel('Upload a file…');

  // A file in another encoding is refused before anything is sent.
  await upload.setInputFiles({ name: 'latin1.zone', mimeType: 'text/plain', buffer: Buffer.from([0x74, 0x78, 0x74, 0x20, 0x54, 0x58, 0x54, 0x20, 0x22, 0xe9, 0x22, 0x0a]) });
  await expect(page.getByRole('alert').filter({ hasText: 'latin1.zone: This file is not UTF-8 text' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Zone file' })).toHaveValue('');

  await upload.setInputFiles({ name: `${zone}.zone`, mimeType: 'text/dns', buffer: Buffer.from('; from the old provider\nnew 300 IN A 192.0.2.2\n') });
  await expect(page.getByText(`Loaded ${zone}.zone (3 lines)`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Zone file' })).toHaveValue('; from the old provider\nnew 300 IN A 192.0.2.2\n');
  await page.getByRole('radio', { name: /Merge/ }).check();
  await expect(page.getByText('Records that are not in the file are removed')).toBeHidden();
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(diff(page)).toHaveText(['+ new 300 IN A 192.0.2.2']);
  await expect(page.getByTestId('import-summary')).toHaveText('Merging this file into the zone adds 1 record.');

  // Changing the mode makes the preview outdated: Apply is gone until a new preview.
  await page.getByRole('radio', { name: /Replace/ }).check();
  await expect(page.getByText('The file or the mode changed since the preview')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply import' })).toHaveCount(0);
  await page.getByRole('radio', { name: /Merge/ }).check();
  await expect(diff(page)).toHaveText(['+ new 300 IN A 192.0.2.2']);

  // Behind the preview's back, through the API.
  expect((await user.api.call('POST', `/domains/${zone}/records`, { name: 'other', record_type: 'A', content: '192.0.2.7', ttl: 300 })).status).toBe(200);
  const { serial_number: moved } = await user.api.get(`/domains/${zone}`);
  await page.getByRole('button', { name: 'Apply import' }).click();
  const banner = page.getByTestId('zone-conflict');
  await expect(banner).toContainText(`${zone} was changed by someone else since you loaded it`);
  await expect(banner).toContainText(new RegExp(`${user.username} changed ${zone.replaceAll('.', '\\.')} (\\d+ s ago|just now) via the API: \\+ other A 192\\.0\\.2\\.7`));
  await expect(page.getByRole('status').filter({ hasText: 'The zone changed since your preview, so nothing was imported' })).toBeVisible();
  await expect(diff(page)).toHaveText(['+ new 300 IN A 192.0.2.2']);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'zone-import-conflict');
  expect((await user.api.get(`/domains/${zone}`)).serial_number).toBe(moved);
  await expectNotServed(user.api, server, zone, { name: 'new', record_type: 'A', content: '192.0.2.2' });

  // The new preview was made against the zone as it is now: applying it works, and keeps the API's record.
  await page.getByRole('button', { name: 'Apply import' }).click();
  await expect(page.getByText(/^Imported into .* adds 1 record$/)).toBeVisible();
  await expect(page.getByTestId('records-count')).toHaveText('5 records');
  await expectServed(user.api, server, zone, { name: 'new', record_type: 'A', content: '192.0.2.2', ttl: '300' });
  await expectServed(user.api, server, zone, { name: 'keep', record_type: 'A', content: '192.0.2.1' });
  await expectServed(user.api, server, zone, { name: 'other', record_type: 'A', content: '192.0.2.7' });
  const [change] = await user.api.get(`/domains/${zone}/changes`);
  expect(change).toMatchObject({ source: 'import', serial_before: moved, added_count: 1, removed_count: 0 });
});
