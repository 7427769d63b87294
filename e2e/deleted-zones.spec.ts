/**
 * Deleted zones: a zone deleted in the dashboard goes off the air, is listed under
 * "Deleted", and Restore brings it back whole: dig answers again, delv validates with the trust
 * anchor taken before the deletion (the same key signs), and its History shows the old lines.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dig } from './support/dns-checks';
import { expect, screenshot, test } from './support/fixtures';
import type { ServerInfo } from './support/server-info';

/** delv's verdict for `name` A, with `key` (a DNSKEY's public key field) as the zone's trust anchor. */
function delv(server: ServerInfo, zone: string, key: string, name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-delv-'));
  const file = path.join(dir, 'anchor.conf');
  fs.writeFileSync(file, `trust-anchors {\n  "${zone}." static-key 257 3 13 "${key}";\n};\n`);
  try {
    return execFileSync('delv', ['@127.0.0.1', '-p', String(server.dnsPort), '-a', file, `+root=${zone}`, name, 'A'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return `${err.stdout ?? ''}${err.stderr ?? ''}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** axe's serious and critical violations on the page as it is. */
async function serious(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`delete a zone in the dashboard, restore it from Deleted: DNS answers again and validates with the old trust anchor (${size.width}×${size.height})`, async ({
    signedIn: page,
    user,
    server,
  }) => {
    await page.setViewportSize(size);
    const shot = (name: string) => (size.width === 1280 ? screenshot(page, name) : Promise.resolve());
    const zone = `${user.username}-restore.test`;
    expect((await user.api.call('POST', '/domains', { name: zone, dnssec_enabled: true })).status).toBe(201);
    expect((await user.api.call('POST', `/domains/${zone}/records`, { name: 'www', record_type: 'A', content: '192.0.2.44' })).status).toBe(200);
    const before = await user.api.get(`/domains/${zone}`);
    const anchor = (before.dnskey_records[0] as string).split(' ').at(-1)!;
    await expect.poll(() => dig(server, `www.${zone}`, 'A').map((a) => a.content)).toEqual(['192.0.2.44']);
    expect(delv(server, zone, anchor, `www.${zone}`)).toMatch(/; fully validated/);

    await page.reload();
    await page.getByRole('button', { name: `Delete ${zone}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${zone}?` });
    await expect(dialog.getByText(/You can restore it, with its records, keys and history, from Deleted on the Domains page for \d+ days\./)).toBeVisible();
    await dialog.getByLabel(`Type ${zone} to confirm`).fill(zone);
    await dialog.getByRole('button', { name: 'Delete domain' }).click();
    await expect(dialog).toBeHidden();
    expect((await user.api.call('GET', `/domains/${zone}`)).status).toBe(404);
    await expect.poll(() => dig(server, `www.${zone}`, 'A')).toEqual([]);

    const deleted = page.getByRole('region', { name: 'Deleted domains' });
    const row = deleted.getByRole('row').filter({ hasText: zone });
    await expect(row).toContainText(user.username);
    await expect(row).toContainText('Signed');
    await shot('domains-deleted');
    expect(await serious(page)).toEqual([]);

    await row.getByRole('button', { name: `Restore ${zone}` }).click();
    const confirm = page.getByRole('dialog', { name: `Restore ${zone}?` });
    await expect(confirm.getByText('the same keys, so the DS at the parent still matches', { exact: false })).toBeVisible();
    await shot('domains-restore-dialog');
    expect(await serious(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Restore domain' }).click();

    // The zone opens; DNS answers again with a newer serial, signed by the same key.
    await expect(page.getByRole('heading', { name: zone, level: 1 })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/domains/${zone}$`));
    await expect.poll(() => dig(server, `www.${zone}`, 'A').map((a) => a.content)).toEqual(['192.0.2.44']);
    const after = await user.api.get(`/domains/${zone}`);
    expect(after.serial_number).toBeGreaterThan(before.serial_number);
    expect(after.dnskey_records).toEqual(before.dnskey_records);
    expect(Number(dig(server, zone, 'SOA')[0]!.content.split(' ')[2])).toBe(after.serial_number);
    expect(delv(server, zone, anchor, `www.${zone}`)).toMatch(/; fully validated/);

    // History: the restore, then the lines from before the deletion.
    await page.getByRole('link', { name: 'History' }).click();
    await expect(page.getByText('zone restored', { exact: true })).toBeVisible();
    await expect(page.getByText('192.0.2.44').first()).toBeVisible();
    await expect(page.getByText('zone created', { exact: true })).toBeVisible();

    // Nothing is left to restore.
    await page.goto('/domains');
    await expect(page.getByRole('heading', { name: 'Deleted', level: 2 })).toBeVisible();
    await expect(page.getByText('No deleted domains')).toBeVisible();
  });
}
