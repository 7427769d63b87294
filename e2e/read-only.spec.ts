/**
 * The dashboard while the database does not answer, for real: a server of this spec's own on a
 * PostgreSQL cluster of its own (server/testing/own-postgres.ts), stopped as a restart or a
 * failover stops it (`pg_ctl stop -m fast`) and started again. A record added, then a zone created,
 * each while the database is away: the note under the top bar appears, the form keeps what was
 * typed and says it was not saved; once the database is back the note goes by itself and the same
 * Save works. axe and a phone's width while the note shows. Skipped, saying why, where PostgreSQL's
 * programs are not installed.
 */
import type { Page } from '@playwright/test';
import { ownPostgresMissing, startOwnPostgres, type OwnPostgres } from '../server/testing/own-postgres';
import { TEST_SECRETS_KEY } from '../server/testing/postgres-database';
import { runCli, startServer, type ServerProcess } from '../server/testing/server-process';
import { ApiClient } from './support/api-client';
import { dig } from './support/dns-checks';
import { expect, screenshot, signIn, test } from './support/fixtures';
import { PHONE, scrollsSideways, serious } from './support/page-checks';

const missing = ownPostgresMissing();
const USER = { username: 'steady', password: 'steady password' };
const ZONE = 'read-only.test';
/** The poll waits out Retry-After (5 s) and backs off: the note goes within a few of its rounds. */
const NOTE_GOES_MS = 60_000;

let db: OwnPostgres;
let own: ServerProcess;
let api: ApiClient;

test.skip(!!missing, `PostgreSQL cannot run here: ${missing}`);

test.beforeAll(async () => {
  if (missing) return;
  db = await startOwnPostgres();
  const env = { DATABASE_URL: db.url, SECRETS_KEY: TEST_SECRETS_KEY };
  own = await startServer({ ...env, DNS_PORT: '0', DNS_THREADS: '1' });
  const cli = async (...args: string[]) => {
    const r = await runCli(own.dataDir, args, env);
    if (r.status !== 0) throw new Error(`cli ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
    return r.stdout.trim().split('\n');
  };
  await cli('users', 'add', USER.username, '--password', USER.password);
  api = new ApiClient(own.url, (await cli('tokens', 'create', USER.username)).at(-1)!);
  expect((await api.call('POST', '/domains', { name: ZONE })).status).toBe(201);
});

test.afterAll(async () => {
  await own?.stop();
  db?.destroy();
});

const note = (page: Page) => page.locator('.outage-banner');
/** The top bar's live region: always in the page, so that what appears in it is announced. */
const region = (page: Page) => page.getByRole('banner').locator('.outage-text[role="status"]');

/** The note as a screen reader meets it: the top bar's status region, with the words. */
async function expectNoteShown(page: Page): Promise<void> {
  await expect(region(page)).toContainText('Read-only for a moment');
  await expect(note(page)).toContainText('The database does not answer, so changes are not saved');
}

test('while the database is away, a note says the service is read-only, forms keep what was typed, and Save works once it is back', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto(`${own.url}/sign-in`);
  await signIn(page, USER);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await page.goto(`${own.url}/domains/${ZONE}`);
  await expect(page.getByTestId('records-count')).toHaveText('2 records');
  await expect(note(page)).toHaveCount(0);
  await expect(region(page)).toHaveText('');

  // The database goes away; a record is added.
  db.stop();
  await page.getByRole('button', { name: '+ Add record' }).click();
  const add = page.getByRole('form', { name: 'Add a record' });
  await add.getByLabel('Name').fill('www');
  await add.getByLabel('IPv4 address').fill('192.0.2.10');
  await add.getByLabel('TTL (seconds)').fill('600');
  await add.getByRole('button', { name: 'Add record' }).click();
  await expectNoteShown(page);
  // The form is there again with every value as typed, and says nothing was saved.
  await expect(add.getByText('Not saved')).toBeVisible();
  await expect(add.getByText('the database does not answer')).toBeVisible();
  await expect(add.getByLabel('Name')).toHaveValue('www');
  await expect(add.getByLabel('IPv4 address')).toHaveValue('192.0.2.10');
  await expect(add.getByLabel('TTL (seconds)')).toHaveValue('600');
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

  // Away again while a zone is created: the name stays, and the form says it was not saved.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  db.stop();
  const create = page.getByRole('form', { name: 'Create a domain' });
  await create.getByLabel('New domain').fill('Later.Read-Only.test');
  await create.getByRole('button', { name: 'Create domain' }).click();
  await expectNoteShown(page);
  await expect(create.getByText('Not saved')).toBeVisible();
  await expect(create.getByLabel('New domain')).toHaveValue('Later.Read-Only.test');
  await expect(create.getByLabel('New domain')).not.toHaveAttribute('aria-invalid', 'true');

  db.start();
  await expect(note(page)).toHaveCount(0, { timeout: NOTE_GOES_MS });
  await create.getByRole('button', { name: 'Create domain' }).click();
  await expect(page.getByRole('heading', { name: 'later.read-only.test', level: 1 })).toBeVisible();
  expect((await api.get('/domains/later.read-only.test')).name).toBe('later.read-only.test');
});
