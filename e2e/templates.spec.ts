/**
 * In the dashboard: a template made from a zone, a new zone created from it (dig answers
 * its MX; its page names the template), the global search (`/`) finding an address in three
 * zones, the address replaced in all of them after a preview as one batch (dig answers the new
 * one), and the batch reverted.
 */
import { randomBytes } from 'node:crypto';
import { expectNotServed, expectServed } from './support/dns-checks';
import { expect, test } from './support/fixtures';

test('template from a zone, a zone from the template, search and replace across zones, batch revert', async ({ signedIn: page, user, server }) => {
  const id = randomBytes(3).toString('hex');
  const src = `src${id}.test`;
  const zones = ['a', 'b', 'c'].map((p) => `${p}${id}.test`);
  for (const z of [src, ...zones]) expect((await user.api.call('POST', '/domains', { name: z })).status).toBe(201);
  const mail = await user.api.call('PATCH', `/domains/${src}/rrsets`, {
    rrsets: [
      { name: '@', record_type: 'MX', ttl: '3600', changetype: 'REPLACE', records: [`10 mail.${src}.`] },
      { name: 'mail', record_type: 'A', ttl: '300', changetype: 'REPLACE', records: ['198.51.100.25'] },
    ],
  });
  expect(mail.status).toBe(200);
  for (const z of zones) expect((await user.api.call('POST', `/domains/${z}/records`, { name: 'www', record_type: 'A', content: '192.0.2.10', ttl: '300' })).status).toBe(200);

  // A template from the zone: its name becomes {zone}.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates' }).click();
  await expect(page.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible();
  await page.getByLabel('Template name').fill(`mail ${id}`);
  await page.getByLabel('From zone').fill(src);
  await page.getByRole('button', { name: 'Create template' }).click();
  await expect(page.getByRole('heading', { name: `mail ${id}`, level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'RRsets' })).toContainText('10 mail.{zone}');

  // A new zone from it: dig answers its MX, pointing inside the new zone.
  const fresh = `new${id}.test`;
  await page.getByLabel('New zone').fill(fresh);
  await page.getByRole('button', { name: 'Create zone' }).click();
  await expect(page.getByRole('heading', { name: fresh, level: 1 })).toBeVisible();
  await expectServed(user.api, server, fresh, { name: '@', record_type: 'MX', content: `10 mail.${fresh}`, ttl: '3600' });
  // Its page names the template it came from, in step with it, and links to it.
  const fact = page.getByTestId('zone-template');
  await expect(fact).toContainText(`From template mail ${id}`);
  await expect(fact).toContainText('In step');
  await fact.getByRole('link', { name: `mail ${id}` }).click();
  await expect(page.getByRole('heading', { name: `mail ${id}`, level: 1 })).toBeVisible();

  // The global search, reached with "/", finds the address in the three zones.
  await page.locator('body').press('/');
  await expect(page.getByLabel('Search all zones')).toBeFocused();
  await page.keyboard.type('192.0.2.10');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Search all zones', level: 1 })).toBeVisible();
  const results = page.getByRole('region', { name: 'Search results' });
  for (const z of zones) await expect(results.getByRole('link', { name: z })).toBeVisible();
  await expect(page.getByText('3 records found')).toBeVisible();

  // Replace it everywhere: a preview per zone first, then one batch.
  await page.getByLabel('New content').fill('192.0.2.20');
  await page.getByRole('button', { name: 'Preview change' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview).toContainText('3 zones would change');
  await expect(preview).toContainText('- www 300 A 192.0.2.10');
  await expect(preview).toContainText('+ www 300 A 192.0.2.20');
  await expectServed(user.api, server, zones[0]!, { name: 'www', record_type: 'A', content: '192.0.2.10' });
  await page.getByRole('button', { name: 'Apply to 3 zones' }).click();
  await expect(page.getByRole('region', { name: 'Applied' })).toContainText('3 zones changed');
  for (const z of zones) await expectServed(user.api, server, z, { name: 'www', record_type: 'A', content: '192.0.2.20', ttl: '300' });
  const [last] = await user.api.get(`/domains/${zones[1]}/changes`);
  expect(last.batch).toMatch(/^[0-9a-f-]{36}$/);

  // The whole batch reverted at once.
  await page.getByRole('button', { name: 'Revert this batch' }).click();
  await expect(page.getByText('Reverted the batch')).toBeVisible();
  for (const z of zones) {
    await expectServed(user.api, server, z, { name: 'www', record_type: 'A', content: '192.0.2.10', ttl: '300' });
    await expectNotServed(user.api, server, z, { name: 'www', record_type: 'A', content: '192.0.2.20' });
  }
});
