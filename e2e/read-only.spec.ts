/**
 * The dashboard while the service is read-only for a moment, for real, each on a server of this
 * spec's own:
 * - the database away: on a PostgreSQL cluster of its own (server/testing/own-postgres.ts), stopped
 *   as a restart or a failover stops it (`pg_ctl stop -m fast`) and started again. A record added,
 *   then a zone created, each while the database is away: the note under the top bar appears, the
 *   form keeps what was typed and says it was not saved; once the database is back the note goes by
 *   itself and the same Save works. axe and a phone's width while the note shows.
 * - the disk full: SQLite on a small tmpfs (server/testing/small-disk.ts) filled to the last byte: a record
 *   added is refused 507, the note says saving is paused, the form keeps it; the space freed, the same
 *   Save goes through and the note goes with it.
 * Each skips, saying why, where it cannot run (no PostgreSQL programs; no tmpfs mount without root).
 */
import type { Locator, Page } from '@playwright/test';
import { ownPostgresMissing, startOwnPostgres, type OwnPostgres } from '../server/testing/own-postgres';
import { TEST_SECRETS_KEY } from '../server/testing/postgres-database';
import { cli, runCli, startServer, type ServerProcess } from '../server/testing/server-process';
import { ApiClient } from './support/api-client';
import { dig } from './support/dns-checks';
import { expect, screenshot, signIn, test } from './support/fixtures';
import { PHONE, scrollsSideways, serious } from './support/page-checks';
import { mountSmallDisk, type SmallDisk } from '../server/testing/small-disk';

const missing = ownPostgresMissing();
const USER = { username: 'steady', password: 'steady password' };
const ZONE = 'read-only.test';
/** The poll waits out Retry-After (5 s) and backs off: the note goes within a few of its rounds. */
const NOTE_GOES_MS = 60_000;

const note = (page: Page) => page.locator('.outage-banner');
/** The top bar's live region: always in the page, so that what appears in it is announced. */
const region = (page: Page) => page.getByRole('banner').locator('.outage-text[role="status"]');

/** The note as a screen reader meets it: the top bar's status region, with the words. */
async function expectNoteShown(page: Page): Promise<void> {
  await expect(region(page)).toContainText('Read-only for a moment');
  await expect(note(page)).toContainText('The database does not answer, so changes are not saved');
}

/** Signs in to `url`'s dashboard and opens `zone`, a new zone with its two NS records. */
async function openZone(page: Page, url: string, zone: string): Promise<void> {
  await page.goto(`${url}/sign-in`);
  await signIn(page, USER);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.goto(`${url}/domains/${zone}`);
  await expect(page.getByTestId('records-count')).toHaveText('2 records');
}

/** Fills the add form with `values` (by label) and presses Add record; returns the form. */
async function addRecord(page: Page, values: Record<string, string>): Promise<Locator> {
  await page.getByRole('button', { name: '+ Add record' }).click();
  const add = page.getByRole('form', { name: 'Add a record' });
  for (const [label, value] of Object.entries(values)) await add.getByLabel(label).fill(value);
  await add.getByRole('button', { name: 'Add record' }).click();
  return add;
}

/** The form shows every value as typed, and says nothing was saved, with the server's reason. */
async function expectKept(form: Locator, values: Record<string, string>, reason: string): Promise<void> {
  await expect(form.getByText('Not saved')).toBeVisible();
  await expect(form.getByText(reason)).toBeVisible();
  for (const [label, value] of Object.entries(values)) await expect(form.getByLabel(label)).toHaveValue(value);
}

test.describe('the database away', () => {
  test.skip(!!missing, `PostgreSQL cannot run here: ${missing}`);

  let db: OwnPostgres;
  let own: ServerProcess;
  let api: ApiClient;

  test.beforeAll(async () => {
    if (missing) return;
    db = await startOwnPostgres();
    const env = { DATABASE_URL: db.url, SECRETS_KEY: TEST_SECRETS_KEY };
    own = await startServer({ ...env, DNS_PORT: '0', DNS_THREADS: '1' });
    const pgCli = async (...args: string[]) => {
      const r = await runCli(own.dataDir, args, env);
      if (r.status !== 0) throw new Error(`cli ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
      return r.stdout.trim().split('\n');
    };
    await pgCli('users', 'add', USER.username, '--password', USER.password);
    api = new ApiClient(own.url, (await pgCli('tokens', 'create', USER.username)).at(-1)!);
    expect((await api.call('POST', '/domains', { name: ZONE })).status).toBe(201);
  });

  test.afterAll(async () => {
    await own?.stop();
    db?.destroy();
  });

  test('while the database is away, a note says the service is read-only, forms keep what was typed, and Save works once it is back', async ({ page }) => {
    test.setTimeout(240_000);
    await openZone(page, own.url, ZONE);
    await expect(note(page)).toHaveCount(0);
    await expect(region(page)).toHaveText('');

    // The database goes away; a record is added.
    db.stop();
    const www = { Name: 'www', 'IPv4 address': '192.0.2.10', 'TTL (seconds)': '600' };
    const add = await addRecord(page, www);
    await expectNoteShown(page);
    await expectKept(add, www, 'the database does not answer');
    await expect(page.getByTestId('records-count')).toHaveText('2 records');
    expect(await serious(page)).toEqual([]);
    await screenshot(page, 'read-only-note');

    // On a phone the note wraps: nothing scrolls sideways, and it is still clean for axe.
    await page.setViewportSize(PHONE);
    await expect(note(page)).toBeVisible();
    const box = (await note(page).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await serious(page)).toEqual([]);
    await screenshot(page, 'read-only-note-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The database is back: the note goes by itself, and the same Save goes through.
    db.start();
    await expect(note(page)).toHaveCount(0, { timeout: NOTE_GOES_MS });
    await expect(region(page)).toHaveText('');
    await add.getByRole('button', { name: 'Add record' }).click();
    await expect(page.getByText(`Added www.${ZONE} A`)).toBeVisible();
    await expect(page.getByTestId('records-count')).toHaveText('3 records');
    expect((await api.records(ZONE, 'name=www')).map((r) => `${r.record_type} ${r.content} ${r.ttl}`)).toEqual(['A 192.0.2.10 600']);
    const dns = { url: own.url, dataDir: own.dataDir, pid: own.child.pid!, adminPassword: '', dnsPort: own.dnsPort };
    await expect.poll(() => dig(dns, `www.${ZONE}`, 'A').map((a) => a.content)).toEqual(['192.0.2.10']);

    // Away again: the domains list cannot load (the record added made it stale), and a zone created
    // is not saved; the name stays as typed.
    db.stop();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
    await expect(page.getByText('Could not load your domains')).toBeVisible();
    await expectNoteShown(page);
    const create = page.getByRole('form', { name: 'Create a domain' });
    await create.getByLabel('New domain').fill('Later.Read-Only.test');
    await create.getByRole('button', { name: 'Create domain' }).click();
    await expectKept(create, { 'New domain': 'Later.Read-Only.test' }, 'the database does not answer');
    await expect(create.getByLabel('New domain')).not.toHaveAttribute('aria-invalid', 'true');

    // Back: the note goes, the list that failed loads again by itself, and the same Create works.
    db.start();
    await expect(note(page)).toHaveCount(0, { timeout: NOTE_GOES_MS });
    await expect(page.getByText('Could not load your domains')).toHaveCount(0);
    await expect(page.getByRole('link', { name: ZONE, exact: true })).toBeVisible();
    await create.getByRole('button', { name: 'Create domain' }).click();
    await expect(page.getByRole('heading', { name: 'later.read-only.test', level: 1 })).toBeVisible();
    expect((await api.get('/domains/later.read-only.test')).name).toBe('later.read-only.test');
  });
});

test.describe('the disk full', () => {
  const zone = 'full-disk.test';
  let disk: SmallDisk;
  let server: ServerProcess;
  let api: ApiClient;

  test.beforeAll(async () => {
    const mounted = mountSmallDisk(48);
    test.skip(typeof mounted === 'string', `no small disk: ${String(mounted)}`);
    disk = mounted as SmallDisk;
    server = await startServer({}, disk.dataDir);
    cli(disk.dataDir, 'users', 'add', USER.username, '--password', USER.password);
    api = new ApiClient(server.url, cli(disk.dataDir, 'tokens', 'create', USER.username).at(-1)!);
    expect((await api.call('POST', '/domains', { name: zone })).status).toBe(201);
  });

  test.afterAll(async () => {
    await server?.stop();
    disk?.unmount();
  });

  test('a save refused for a full disk keeps the form, the note says saving is paused, and the same Save works once there is space', async ({ page }) => {
    await openZone(page, server.url, zone);
    disk.fill();
    const mail = { Name: 'mail', 'IPv4 address': '192.0.2.25' };
    const add = await addRecord(page, mail);
    await expect(region(page)).toContainText('Saving is paused');
    await expect(note(page)).toContainText("The server's disk is full, so changes are not saved");
    await expectKept(add, mail, 'the disk under the database is full');
    // Reading goes on: the zone's records are there.
    expect((await api.records(zone)).length).toBe(2);
    expect(await serious(page)).toEqual([]);

    disk.free();
    await add.getByRole('button', { name: 'Add record' }).click();
    await expect(page.getByText(`Added mail.${zone} A`)).toBeVisible();
    await expect(note(page)).toHaveCount(0);
    expect((await api.records(zone, 'name=mail')).map((r) => r.content)).toEqual(['192.0.2.25']);
  });
});
