/**
 * A newcomer's first day on a fresh server: the admin signs in with the password the first start
 * printed and is asked for a new one before anything else (no navigation, no data), then reaches the
 * dashboard; the domains page notes what is still to set before real use, and the "Before real use"
 * page lists it and moves zones on other name servers; a restart with a new NAMESERVERS moves the
 * zones on the previous set, in the database and in what DNS answers.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { cli, runCli, startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { dig } from './support/dns-checks';
import { choosePassword, expect, signIn, test } from './support/fixtures';

const ADMIN_OWN = 'my own admin password';
const apexNs = (own: ServerProcess, zone: string) =>
  dig({ url: own.url, dataDir: own.dataDir, pid: own.child.pid!, adminPassword: '', dnsPort: own.dnsPort }, zone, 'NS')
    .map((a) => a.content)
    .sort();

/** The serious and critical axe violations on the page as it is. */
const axeSerious = async (page: Page) => (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);

test.describe('first day', () => {
  test.describe.configure({ mode: 'serial' });
  let own: ServerProcess;
  let dataDir: string;

  test.beforeAll(async () => {
    dataDir = tempDataDir();
    own = await startServer({ DNS_PORT: '0' }, dataDir);
  });
  test.afterAll(async () => {
    await own?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the first sign-in as admin asks for a new password first, then opens the dashboard', async ({ page }) => {
    await page.goto(`${own.url}/sign-in`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(own.adminPassword!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Choose a new password', level: 1 })).toBeVisible();
    // Nothing else of the dashboard until then.
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    expect(await axeSerious(page)).toEqual([]);
    const refused = await page.evaluate(async () => (await fetch('/bff/api/domains')).status);
    expect(refused).toBe(403);

    await choosePassword(page, own.adminPassword!, ADMIN_OWN);
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

    // Signed out and in again: the new password, no step; the printed one is refused.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(own.adminPassword!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await page.getByLabel('Password').fill(ADMIN_OWN);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  });

  test('the domains page notes what to set before real use; the page lists it and moves zones on other name servers', async ({ page }) => {
    cli(dataDir, 'users', 'add', 'owner', '--password', 'password-of-owner');
    const empty = path.join(dataDir, 'empty.zone');
    fs.writeFileSync(empty, '');
    for (const zone of ['first.test', 'elsewhere.test']) cli(dataDir, 'zones', 'import', 'owner', zone, empty);
    // One zone on a set of its own (as a CLI run with another NAMESERVERS leaves it).
    expect((await runCli(dataDir, ['nameservers', 'move', '--zones', 'elsewhere.test'], { NAMESERVERS: 'ns.elsewhere.example' })).status).toBe(0);

    await page.goto(`${own.url}/sign-in`);
    await signIn(page, { username: 'admin', password: ADMIN_OWN });
    const note = page.getByRole('status').filter({ hasText: 'Before real use' });
    await expect(note).toContainText('NAMESERVERS, HOSTMASTER, Zones on other name servers');
    await note.getByRole('link', { name: 'See what to set' }).click();
    await expect(page.getByRole('heading', { name: 'Before real use', level: 1 })).toBeVisible();
    const item = (title: string) => page.getByRole('listitem', { name: title, exact: true });
    await expect(item('NAMESERVERS')).toContainText('Before real use');
    await expect(item('NAMESERVERS')).toContainText('ns1.zonedeck.test, ns2.zonedeck.test');
    await expect(item('The admin password')).toContainText('Set');
    await expect(item('RESOLVER')).toContainText('Recommended');
    await expect(item('DNS on port 53')).toContainText(String(own.dnsPort));
    expect(await axeSerious(page)).toEqual([]);

    const zones = item('Zones on other name servers');
    await expect(zones).toContainText('1 zone on ns.elsewhere.example');
    await zones.getByRole('button', { name: 'Move 1 zone from ns.elsewhere.example' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move zones' }).click();
    await expect(page.getByText('Moved 1 zone to ns1.zonedeck.test, ns2.zonedeck.test')).toBeVisible();
    await expect(zones).toContainText('Set');
    await expect.poll(() => apexNs(own, 'elsewhere.test')).toEqual(['ns1.zonedeck.test', 'ns2.zonedeck.test']);

    // The note goes when dismissed, and stays gone.
    await page.goto(`${own.url}/domains`);
    await note.getByRole('button', { name: 'Dismiss' }).click();
    await expect(note).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await expect(note).toHaveCount(0);
  });

  test('a restart with NAMESERVERS set moves the zones on the previous name servers', async ({ page }) => {
    await own.stop();
    own = await startServer({ DNS_PORT: '0', NAMESERVERS: 'ns1.example.net,ns2.example.net' }, dataDir);
    expect(apexNs(own, 'first.test')).toEqual(['ns1.example.net', 'ns2.example.net']);
    expect(apexNs(own, 'elsewhere.test')).toEqual(['ns1.example.net', 'ns2.example.net']);
    await page.goto(`${own.url}/sign-in`);
    await signIn(page, { username: 'admin', password: ADMIN_OWN });
    await page.goto(`${own.url}/admin/setup`);
    await expect(page.getByRole('listitem', { name: 'NAMESERVERS', exact: true })).toContainText('Set');
    await expect(page.getByRole('listitem', { name: 'Zones on other name servers', exact: true })).toContainText('0 zones on another set');
    // The zone's owner finds the move in its history, made by zonedeck.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, { username: 'owner', password: 'password-of-owner' });
    await page.goto(`${own.url}/domains/first.test/history`);
    await expect(page.getByText('name servers moved from ns1.zonedeck.test, ns2.zonedeck.test to ns1.example.net, ns2.example.net')).toBeVisible();
  });
});
