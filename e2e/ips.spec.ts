import { expect, screenshot, seed, test } from './support/fixtures';

test('IPs page through the API pagination, filters by family and status, and shows the records pointing in', async ({ signedIn: page, server, user }) => {
  // 60 IPs: more than one page of 50. Every fifth is IPv6, every seventh inactive.
  const ips = Array.from({ length: 60 }, (_, i) => ({ cidr: i % 5 === 4 ? `2001:db8:${i.toString(16)}::/48` : `198.51.${i}.0/24`, active: i % 7 !== 3 }));
  seed(server, { user: user.username, ips });
  // Zone names are global: each run of this test (a retry, --repeat-each) takes its own.
  const zone = `pointing-${user.username}.test`;
  await user.api.call('POST', '/domains', { name: zone });
  await user.api.call('POST', `/domains/${zone}/records`, { name: 'www', record_type: 'A', content: '198.51.0.10' });
  await user.api.call('POST', `/domains/${zone}/records`, { name: 'api', record_type: 'A', content: '198.51.0.11' });

  await page.getByRole('link', { name: 'IPs' }).click();
  const rows = page.locator('table.table > tbody > tr');
  await expect(page.getByText('1–50 of 60')).toBeVisible();
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText('198.51.0.0');
  await expect(rows.first()).toContainText('198.51.0.0 – 198.51.0.255');
  await expect(rows.first()).toContainText('/24');
  await screenshot(page, 'ips');

  await page.getByRole('button', { name: 'Next →' }).click();
  await expect(page.getByText('51–60 of 60')).toBeVisible();
  await expect(rows).toHaveCount(10);
  await expect(page).toHaveURL(/page=2/);

  await page.getByLabel('Family').selectOption('ipv6');
  await expect(page.getByText('12 of 60 IPs match')).toBeVisible();
  await expect(rows).toHaveCount(12);
  for (const text of await rows.allTextContents()) expect(text).toContain('IPv6');

  await page.getByLabel('Family').selectOption('all');
  await page.getByLabel('Status').selectOption('inactive');
  await expect(page.getByText('9 of 60 IPs match')).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain('Inactive');

  // Two filters changed before the page renders again (one task, as a fast user or a script
  // can): both land. Built on the last render's URL, the second change put the first one back.
  await page.getByLabel('Status').selectOption('all');
  await expect(page.getByText('9 of 60 IPs match')).toBeHidden();
  await page.evaluate(() => {
    for (const [label, value] of [
      ['Family', 'ipv4'],
      ['Status', 'active'],
    ]) {
      const select = [...document.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(label))?.control as HTMLSelectElement;
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }
  });
  // 48 IPv4 ranges, 7 of them inactive.
  await expect(page.getByText('41 of 60 IPs match')).toBeVisible();
  await expect(page).toHaveURL(/family=ipv4/);
  await expect(page).toHaveURL(/status=active/);
  await expect(page.getByLabel('Family')).toHaveValue('ipv4');

  // The cross-reference: records of the user's zones that point into the first range.
  await page.getByLabel('Family').selectOption('all');
  await page.getByLabel('Status').selectOption('all');
  const first = rows.first();
  await first.getByRole('button', { name: '2 records' }).click();
  await expect(page.getByRole('link', { name: `www.${zone}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `api.${zone}` })).toBeVisible();
  await screenshot(page, 'ips-usage');
  await page.getByRole('link', { name: `www.${zone}` }).click();
  await expect(page.getByRole('heading', { name: zone, level: 1 })).toBeVisible();
  await expect(page.getByTestId('records-count')).toHaveText('1 of 4 records');
});

test('IPs page says so when there are none', async ({ signedIn: page }) => {
  await page.getByRole('link', { name: 'IPs' }).click();
  await expect(page.getByText('No IPs registered yet')).toBeVisible();
});
