/**
 * Secondary zones in the dashboard, against a real Knot primary: created from the new-zone form,
 * records read only with the reason, the Transfer panel, "Retrieve now" bringing a change made on
 * Knot into the records and History, the server's refusal of a primary by name beside its field,
 * and the pages at a phone's and a desktop's width with no serious axe violation.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './support/fixtures';
import { KnotPrimary, primaryZoneFile } from '../server/testing/knot-primary';
import { freePort } from '../server/testing/test-server';

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

async function fitsWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  expect(await seriousViolations(page)).toEqual([]);
}

test('Secondary zone: created as a copy of a Knot primary, read only, and "Retrieve now" brings a change made on Knot into the records and History', async ({ signedIn: page, user }) => {
  test.setTimeout(120_000);
  const zone = `${user.username}-sec.test`;
  // Its NOTIFYs go to a port nobody listens on: the change is seen only when asked ("Retrieve now").
  const knot = await KnotPrimary.start([{ name: zone, file: primaryZoneFile(zone, 1) }], await freePort());
  try {
    const form = page.getByRole('form', { name: 'Create a domain' });
    await form.getByLabel('New domain').fill(zone);
    await form.getByLabel('Kind').selectOption('secondary');
    await form.getByLabel('Primaries').fill(knot.address);
    await form.getByRole('button', { name: 'Create domain' }).click();

    await expect(page.getByRole('heading', { name: zone, level: 1 })).toBeVisible();
    const transfer = page.getByRole('region', { name: 'Transfer' });
    await expect(transfer.getByRole('status')).toContainText('OK');
    await expect(transfer.getByText(knot.address)).toBeVisible();
    await expect(transfer.locator('dd').first()).toHaveText('1');

    const records = page.getByRole('region', { name: 'Records' });
    await expect(records.getByText('192.0.2.10')).toBeVisible();
    await expect(records.getByText(`Records come from ${knot.address} by zone transfer; change them on the primary.`)).toBeVisible();
    await expect(page.getByRole('button', { name: /Add record/ })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'SOA settings' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'DNSSEC' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Import' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete domain' })).toBeVisible();
    await fitsWidth(page, 390);
    await screenshot(page, 'secondary-zone-phone');
    await fitsWidth(page, 1280);
    await screenshot(page, 'secondary-zone');

    await knot.set(zone, 'new', '300', 'A', '192.0.2.99');
    await transfer.getByRole('button', { name: 'Retrieve now' }).click();
    await expect(records.getByText('192.0.2.99')).toBeVisible({ timeout: 20_000 });
    await expect(transfer.locator('dd').first()).toHaveText('2');

    await page.getByRole('link', { name: 'History' }).click();
    await expect(page.getByText(/serial 2 transferred from 127\.0\.0\.1:\d+/)).toBeVisible();
    await expect(page.getByText(/Nothing can be reverted here/)).toBeVisible();
    await expect(page.getByRole('button', { name: /Revert change/ })).toHaveCount(0);

    await page.getByRole('link', { name: 'Domains' }).first().click();
    const row = page.getByRole('row').filter({ hasText: zone });
    await expect(row.getByText('Secondary')).toBeVisible();
  } finally {
    await knot.stop(true);
  }
});

test('Secondary zone: a primary given by name is refused beside the Primaries field, and nothing is created', async ({ signedIn: page, user }) => {
  const zone = `${user.username}-bad.test`;
  const form = page.getByRole('form', { name: 'Create a domain' });
  await form.getByLabel('New domain').fill(zone);
  await form.getByLabel('Kind').selectOption('secondary');
  await form.getByRole('button', { name: 'Create domain' }).click();
  await expect(form.getByText('Name at least one primary')).toBeVisible();

  await form.getByLabel('Primaries').fill('ns1.example.com');
  await form.getByRole('button', { name: 'Create domain' }).click();
  const field = form.getByLabel('Primaries');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('"ns1.example.com" is not an IP address')).toBeVisible();
  expect((await user.api.call('GET', `/domains/${zone}`)).status).toBe(404);
});
