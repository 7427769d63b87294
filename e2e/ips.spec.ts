import { expect, screenshot, seed, test } from './support/fixtures';

test('IPs page through the API pagination, filters by family and status, and shows the records pointing in', async ({ signedIn: page, server, user }) => {
  // 60 IPs: more than one page of 50. Every fifth is IPv6, every seventh inactive.
  const ips = Array.from({ length: 60 }, (_, i) => ({ cidr: i % 5 === 4 ? `2001:db8:${i.toString(16)}::/48` : `198.51.${i}.0/24`, active: i % 7 !== 3 }));
  seed(server, { user: user.username, ips });
  await user.api.call('POST', '/domains', { name: 'pointing.test' });
  await user.api.call('POST', '/domains/pointing.test/records', { name: 'www', record_type: 'A', content: '198.51.0.10' });
  await user.api.call('POST', '/domains/pointing.test/records', { name: 'api', record_type: 'A', content: '198.51.0.11' });

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

  // The cross-reference: records of the user's zones that point into the first range.
  await page.getByLabel('Status').selectOption('all');
  const first = rows.first();
  await first.getByRole('button', { name: '2 records' }).click();
  await expect(page.getByRole('link', { name: 'www.pointing.test' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'api.pointing.test' })).toBeVisible();
  await screenshot(page, 'ips-usage');
  await page.getByRole('link', { name: 'www.pointing.test' }).click();
  await expect(page.getByRole('heading', { name: 'pointing.test', level: 1 })).toBeVisible();
  await expect(page.getByTestId('records-count')).toHaveText('1 of 4 records');
});

test('IPs page says so when there are none', async ({ signedIn: page }) => {
  await page.getByRole('link', { name: 'IPs' }).click();
  await expect(page.getByText('No IPs registered yet')).toBeVisible();
});
