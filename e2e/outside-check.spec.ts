/**
 * The zone page's "Check from outside" card, and long history lines for keyboard users.
 *
 * The run's server has no RESOLVER: the card explains that. A second server started here finds the
 * parent zone `test` through a fake resolver (this process) and asks the parent's fake server at
 * 127.0.0.77:53 (PARENT_CHECK_NETWORKS lets it) for the zone's referral: pending while the parent
 * lists other name servers (with what to set at the registrar), active once it lists ours after
 * "Check again"; a resolver that stops recursing is said to, never "active".
 * At 1280×800 and 390×844, with axe-core on the card, the revert preview and the import preview.
 */
import dgram from 'node:dgram';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import packet from 'dns-packet';
import { freePort } from '../server/testing/test-server';
import { cli, startServer, type ServerProcess } from '../server/testing/server-process';
import { ApiClient } from './support/api-client';
import { expect, signIn, test } from './support/fixtures';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

async function serious(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const { violations } = await builder.analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

const pageScrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** The parent zone's server: at port 53, where the check asks it, on an address of its own. */
const PARENT_SERVER = '127.0.0.77';
const SOA = { mname: 'ns.parent.test', rname: 'hostmaster.parent.test', serial: 1, refresh: 300, retry: 300, expire: 3600, minimum: 300 };

test.describe('check from outside', () => {
  // The parent's server must answer where the check asks every parent: port 53, which only root may bind.
  test.skip(process.getuid?.() !== 0, 'the fake parent server binds port 53, which needs root');
  let own: ServerProcess;
  let resolver: dgram.Socket;
  let parent: dgram.Socket;
  /** The NS set the parent's server refers resolvers to for each zone; a zone it does not know is NXDOMAIN. */
  const parentNs = new Map<string, string[]>();
  /** Whether the fake resolver recurses (RA set) or answers as an authoritative server would. */
  let recursing = true;

  test.beforeAll(async () => {
    const port = await freePort();
    resolver = dgram.createSocket('udp4');
    resolver.on('message', (msg, rinfo) => {
      const q = packet.decode(msg);
      const { name, type } = q.questions![0]!;
      let answers: packet.Answer[] = [];
      if (name === 'test' && type === 'SOA') answers = [{ type: 'SOA', name, ttl: 300, data: SOA }];
      else if (name === 'test' && type === 'NS') answers = [{ type: 'NS', name, ttl: 300, data: 'ns.parent.test' }];
      else if (name === 'ns.parent.test' && type === 'A') answers = [{ type: 'A', name, ttl: 300, data: PARENT_SERVER }];
      const authorities: packet.Answer[] = answers.length ? [] : [{ type: 'SOA', name: 'test', ttl: 300, data: SOA }];
      const flags = recursing ? packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE : packet.AUTHORITATIVE_ANSWER;
      resolver.send(packet.encode({ id: q.id, type: 'response', flags, questions: q.questions, answers, authorities }), rinfo.port, rinfo.address);
    });
    await new Promise<void>((r) => resolver.bind(port, '127.0.0.1', () => r()));
    parent = dgram.createSocket('udp4');
    parent.on('message', (msg, rinfo) => {
      const q = packet.decode(msg);
      const { name, type } = q.questions![0]!;
      const ns = parentNs.get(name.toLowerCase());
      // The NS question gets a referral (the authority section, no AA); the DS question an authoritative "none".
      const referral = type === 'NS' && ns !== undefined;
      const authorities: packet.Answer[] = referral ? ns.map((data) => ({ type: 'NS', name, ttl: 300, data })) : [{ type: 'SOA', name: 'test', ttl: 300, data: SOA }];
      const flags = (referral ? 0 : packet.AUTHORITATIVE_ANSWER) | (ns ? 0 : 3);
      parent.send(packet.encode({ id: q.id, type: 'response', flags, questions: q.questions, authorities }), rinfo.port, rinfo.address);
    });
    await new Promise<void>((r) => parent.bind(53, PARENT_SERVER, () => r()));
    own = await startServer({ RESOLVER: `127.0.0.1:${port}`, DNS_PORT: '0', PARENT_CHECK_NETWORKS: `${PARENT_SERVER}/32` });
  });

  test.afterAll(async () => {
    resolver?.close();
    parent?.close();
    await own?.stop();
  });

  test('a resolver that does not recurse is said to, and the zone is never active on its word', async ({ page }) => {
    const username = 'outsidenorecursion';
    cli(own.dataDir, 'users', 'add', username, '--password', 'outside password');
    const api = new ApiClient(own.url, cli(own.dataDir, 'tokens', 'create', username).at(-1)!);
    const zone = `${username}.test`;
    expect((await api.call('POST', '/domains', { name: zone })).status).toBe(201);
    parentNs.set(zone, ['ns1.zonedeck.test', 'ns2.zonedeck.test']);
    recursing = false;
    try {
      await page.goto(`${own.url}/sign-in`);
      await signIn(page, { username, password: 'outside password' });
      await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
      await page.goto(`${own.url}/domains/${zone}`);
      const card = page.getByRole('region', { name: /Check from outside/ });
      await expect(card.getByRole('heading', { name: 'Check from outside Resolver does not recurse' })).toBeVisible();
      await expect(card.getByTestId('not-recursive')).toContainText('RESOLVER does not recurse');
      await expect(card.getByRole('row', { name: /^NS/ }).getByRole('cell').nth(2)).toHaveText('Not known');
      const report = await api.get(`/domains/${zone}/delegation`);
      expect(report).toMatchObject({ resolver_status: 'not_recursive', ns_match: false, parent: null });
      expect(await serious(page, '.delegation-card')).toEqual([]);
    } finally {
      recursing = true;
    }
  });

  for (const size of SIZES) {
    test(`a zone is pending until the parent lists our name servers, then active (${size.width}×${size.height})`, async ({ page }) => {
      await page.setViewportSize(size);
      const username = `outside${size.width}`;
      cli(own.dataDir, 'users', 'add', username, '--password', 'outside password');
      const api = new ApiClient(own.url, cli(own.dataDir, 'tokens', 'create', username).at(-1)!);
      const zone = `${username}.test`;
      expect((await api.call('POST', '/domains', { name: zone })).status).toBe(201);
      parentNs.set(zone, ['ns1.registrar-parking.example', 'ns2.registrar-parking.example']);

      await page.goto(`${own.url}/sign-in`);
      await signIn(page, { username, password: 'outside password' });
      await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
      await page.goto(`${own.url}/domains/${zone}`);
      const card = page.getByRole('region', { name: /Check from outside/ });
      await card.scrollIntoViewIfNeeded();
      await expect(card.getByRole('heading', { name: 'Check from outside Pending' })).toBeVisible();
      const pending = card.getByRole('status').filter({ hasText: 'Pending: the parent does not delegate this zone to zonedeck yet' });
      await expect(pending).toContainText('Resolvers are sent to ns1.registrar-parking.example, ns2.registrar-parking.example.');
      await expect(pending.getByRole('listitem')).toHaveText(['ns1.zonedeck.test', 'ns2.zonedeck.test']);
      const ns = card.getByRole('row', { name: /^NS/ });
      await expect(ns.getByRole('cell').nth(0)).toHaveText('ns1.registrar-parking.examplens2.registrar-parking.example');
      await expect(ns.getByRole('cell').nth(2)).toHaveText('Pending');
      await expect(card.getByRole('row', { name: /^DS/ }).getByRole('cell').nth(2)).toHaveText('Unsigned');
      // The parent's servers are asked for the serial too: these have no address.
      await expect(card.getByTestId('nameserver-row')).toHaveText([/ns1\.registrar-parking\.example.*not found.*No answer/, /ns2\.registrar-parking\.example.*not found.*No answer/]);
      expect(await serious(page, '.delegation-card')).toEqual([]);
      expect(await pageScrollsSideways(page)).toBe(false);

      // The operator sets the name servers at the registrar; "Check again" sees it (the server renews a result after 5 s).
      parentNs.set(zone, ['ns1.zonedeck.test.', 'ns2.zonedeck.test.']);
      await expect(async () => {
        await card.getByRole('button', { name: 'Check again' }).click();
        await expect(card.getByRole('heading', { name: 'Check from outside Active' })).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 30_000 });
      await expect(pending).toHaveCount(0);
      await expect(ns.getByRole('cell').nth(2)).toHaveText('Delegated');
      await expect(card.getByTestId('nameserver-row').getByRole('rowheader')).toHaveText(['ns1.zonedeck.test', 'ns2.zonedeck.test']);
      expect(await serious(page, '.delegation-card')).toEqual([]);
      expect(await pageScrollsSideways(page)).toBe(false);
    });
  }
});

test('without RESOLVER, the card says why nothing is checked', async ({ signedIn: page, user }) => {
  const zone = `${user.username}-outside.test`;
  expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
  await page.goto(`/domains/${zone}`);
  const card = page.getByRole('region', { name: /Check from outside/ });
  await expect(card.getByTestId('no-resolver')).toContainText('No resolver is configured');
  await expect(card.getByRole('button', { name: 'Check again' })).toHaveCount(0);
  expect(await serious(page, '.delegation-card')).toEqual([]);
});

const LONG_TXT = `v=spf1 ${Array.from({ length: 14 }, (_, i) => `include:_spf${i}.mail-provider.example`).join(' ')} -all`;

test('a long history line is reached with Tab and scrolled with the arrow keys', async ({ signedIn: page, user }) => {
  const zone = `${user.username}-long.test`;
  expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
  expect((await user.api.call('POST', `/domains/${zone}/records`, { name: '@', record_type: 'TXT', content: LONG_TXT })).status).toBe(200);
  await page.goto(`/domains/${zone}/history`);
  const list = page.getByRole('list', { name: /^Records of change #/ }).first();
  await expect(list).toContainText('include:_spf12.mail-provider.example');
  expect(await list.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  // From the page's start, by keyboard only.
  await page.getByRole('heading', { level: 1 }).click();
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await list.evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  // Focus is visible on it (the focus ring is a box shadow).
  expect(await list.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
  expect(await list.evaluate((el) => el.scrollLeft)).toBe(0);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => list.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});

for (const size of SIZES) {
  test(`the revert and import previews pass axe, their long lines keyboard-scrollable (${size.width}×${size.height})`, async ({ signedIn: page, user }) => {
    await page.setViewportSize(size);
    const zone = `${user.username}-previews.test`;
    expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
    expect((await user.api.call('POST', `/domains/${zone}/records`, { name: '@', record_type: 'TXT', content: LONG_TXT })).status).toBe(200);

    await page.goto(`/domains/${zone}/history`);
    const newest = (await user.api.call('GET', `/domains/${zone}/changes`)).body[0] as { id: number };
    await page.getByRole('button', { name: `Revert change #${newest.id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Revert change #${newest.id}?` });
    const preview = dialog.getByRole('list', { name: 'Records the revert would apply' });
    await expect(preview).toContainText('include:_spf12.mail-provider.example');
    expect(await preview.getAttribute('tabindex')).toBe('0');
    expect(await serious(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`/domains/${zone}/import`);
    // Character-strings of at most 255 octets each (RFC 1035 §3.3), as a zone file writes a long TXT.
    const strings = `${LONG_TXT} but longer`
      .match(/.{1,200}/g)!
      .map((c) => `"${c}"`)
      .join(' ');
    await page.getByRole('textbox', { name: 'Zone file' }).fill(`$ORIGIN ${zone}.\n@ 300 IN TXT ${strings}\n`);
    await page.getByRole('button', { name: 'Preview' }).click();
    const diff = page.getByRole('list', { name: 'Records the import would apply' });
    await expect(diff).toContainText('but longer');
    expect(await diff.getAttribute('tabindex')).toBe('0');
    expect(await serious(page)).toEqual([]);
  });
}
