import { expect, screenshot, seed, test } from './support/fixtures';

test('a zone with 10,000 records loads, filters and scrolls with only the visible rows in the page', async ({ signedIn: page, server, user }) => {
  const zone = `${user.username}-big.test`;
  seed(server, { user: user.username, zone: { name: zone, records: 10_000 } });
  await page.goto(`/domains/${zone}`);
  await expect(page.getByTestId('records-count')).toHaveText('10,002 records', { timeout: 20_000 });
  // Virtualized: a screenful of rows, not ten thousand.
  const rows = page.getByTestId('records-scroll').getByRole('row');
  expect(await rows.count()).toBeLessThan(60);
  await screenshot(page, 'editor-10k', { fullPage: false });

  await page.getByLabel('Filter by name').fill('host0999');
  await expect(page.getByTestId('records-count')).toHaveText('10 of 10,002 records');
  await expect(rows).toHaveCount(10);
  await page.getByLabel('Filter by name').fill('');

  // Sorting by name descending puts the last host first; scrolling to the end shows the apex.
  await expect(page.getByRole('columnheader', { name: 'Name', exact: true })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByRole('button', { name: 'Name', exact: true }).click();
  await expect(page.getByRole('columnheader', { name: 'Name', exact: true })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.first()).toContainText('host09999');
  // The page scrolls the list (no box of its own inside the page).
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(rows.last()).toContainText('(apex)');
});

test('the editor holds together in a narrow window', async ({ signedIn: page, user }) => {
  const zone = `${user.username}-narrow.test`;
  await user.api.call('POST', '/domains', { name: zone });
  await user.api.call('POST', `/domains/${zone}/records`, { name: '_dmarc', record_type: 'TXT', content: 'v=DMARC1; p=reject; rua=mailto:dmarc@example.com' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/domains/${zone}`);
  await expect(page.getByTestId('records-count')).toHaveText('3 records');
  // Nothing wider than the window: no sideways scrolling.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'editor-narrow');
  await page.getByRole('button', { name: `Edit _dmarc.${zone} TXT` }).click();
  await expect(page.getByRole('form', { name: `Edit _dmarc.${zone} TXT` }).getByLabel('Text')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'editor-narrow-edit');
  await page.goto('/ips');
  await screenshot(page, 'ips-narrow');
});

test("on a phone, each row's buttons are its own: rows are measured, so none covers the next", async ({ signedIn: page, user }) => {
  const zone = `${user.username}-phone.test`;
  await user.api.call('POST', '/domains', { name: zone });
  for (let i = 1; i <= 6; i++) await user.api.call('POST', `/domains/${zone}/records`, { name: `h${i}`, record_type: 'TXT', content: `row ${i} v=spf1 include:_spf.example.com -all` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/domains/${zone}`);
  await expect(page.getByTestId('records-count')).toHaveText('8 records');
  // No two rows overlap: each starts where the one above ends, or below it.
  const boxes = await page
    .getByRole('row')
    .filter({ hasText: 'row ' })
    .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect()).map((b) => ({ top: b.top, bottom: b.bottom })));
  expect(boxes).toHaveLength(6);
  for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom - 0.5);
  // A tap on a row's Edit (at its position on screen, as a finger would) edits that row.
  const edit = page.getByRole('button', { name: `Edit h1.${zone} TXT` });
  await edit.scrollIntoViewIfNeeded();
  const box = (await edit.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByRole('form', { name: `Edit h1.${zone} TXT` })).toBeVisible();
});
