/**
 * The dashboard's layout, checked by geometry on every page at a phone size and a desktop size:
 * nothing wider than the window (no sideways panning), on a phone a top bar of one row with the
 * navigation behind one Menu button, on a desktop the navigation on one row, the row editor in view
 * after Edit and owner names shown whole. One administrator, one sign-in per size.
 */
import type { Page } from '@playwright/test';
import { ApiClient } from './support/api-client';
import { cli, expect, seed, signIn, test } from './support/fixtures';

const SIZES = [
  { width: 390, height: 844, phone: true },
  { width: 1280, height: 800, phone: false },
];
const LONG = '_sip._tcp.a-rather-long-label-for-a-phone-screen';

/** What a user would notice about the page in view: sideways panning, the bar's height, the nav's rows. */
async function geometry(page: Page) {
  return page.evaluate(() => {
    const links = [...document.querySelectorAll<HTMLElement>('nav[aria-label="Main"] a')];
    return {
      scrollWidth: document.documentElement.scrollWidth,
      width: window.innerWidth,
      barHeight: document.querySelector('.topbar')?.getBoundingClientRect().height ?? 0,
      navRows: new Set(links.filter((a) => a.offsetParent !== null).map((a) => a.offsetTop)).size,
      navLinks: links.length,
      // Links cut off at the navigation's end (hidden under the search box) count as not fitting.
      navOverflow: ((nav) => (nav ? nav.scrollWidth - nav.clientWidth : 0))(document.querySelector<HTMLElement>('nav[aria-label="Main"]')),
      // Boxes that scroll sideways inside the page (a wide table in its frame, a long line); a
      // zone file's text box keeps its lines whole, as an editor does.
      innerScrollers: [...document.querySelectorAll<HTMLElement>('main *:not(textarea)')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
        .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${el.scrollWidth}/${el.clientWidth}`),
    };
  });
}

/** The box of the element fully inside the window. */
async function expectInView(page: Page, selector: ReturnType<Page['locator']>) {
  const box = (await selector.boundingBox())!;
  const size = page.viewportSize()!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(size.height);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width);
}

test.describe.configure({ mode: 'serial' });

let admin: { username: string; password: string; api: ApiClient } | undefined;
let zone = '';
const pages: Array<[string, string]> = [];

test.beforeAll(async ({ server }) => {
  test.setTimeout(60_000);
  const username = `layout${Date.now().toString(36)}`;
  const password = `pw-${username}`;
  cli(server, 'users', 'add', username, '--password', password, '--admin');
  const api = new ApiClient(server.url, cli(server, 'tokens', 'create', username, '--label', 'layout checks').at(-1)!);
  admin = { username, password, api };
  // Many records (the list is long enough to scroll the page) and a long owner name.
  zone = `${username}-with-a-long-zone-name.test`;
  seed(server, { user: username, zone: { name: zone, records: 300 } });
  expect((await api.call('POST', `/domains/${zone}/records`, { name: LONG, record_type: 'SRV', content: '10 60 5060 sip-server-with-a-long-name.example.com.' })).status).toBe(200);
  expect((await api.call('POST', '/tsig-keys', { name: `${username}-transfer-key-with-a-long-name` })).status).toBe(201);
  const team = `${username}-team`;
  expect((await api.call('POST', '/teams', { name: team })).status).toBe(201);
  const template = await api.call('POST', '/templates', { name: `${username}-mail-template`, rrsets: [{ name: '@', record_type: 'MX', records: ['10 mx.{zone}'] }] });
  expect(template.status).toBe(201);
  // A signed zone (its keys and DS records, long strings) and a pool, for their pages.
  const signed = `${username}-signed.test`;
  expect((await api.call('POST', '/domains', { name: signed, dnssec_enabled: true })).status).toBe(201);
  const pool = { name: 'www', type: 'A', ttl: 30, policy: 'failover', members: [{ address: '192.0.2.1', priority: 1 }], check: { kind: 'http', path: '/health' } };
  const made = await api.call('POST', `/domains/${signed}/pools`, pool);
  expect(made.status).toBe(201);
  const hook = await api.call('POST', '/webhooks', { url: 'https://hooks.example.com/zonedeck/a/long/path/for/the/phone', events: ['zone.changed'] });
  expect(hook.status).toBe(201);
  pages.push(
    ['domains', '/domains'],
    ['records', `/domains/${zone}`],
    ['history', `/domains/${zone}/history`],
    ['signed zone and its DNSSEC', `/domains/${signed}`],
    ['pool', `/domains/${signed}/pools/${made.body.id}`],
    ['pools', `/domains/${zone}/pools`],
    ['traffic', `/domains/${zone}/traffic`],
    ['import', `/domains/${zone}/import`],
    ['ips', '/ips'],
    ['tokens', '/tokens'],
    ['tsig keys', '/tsig-keys'],
    ['webhooks', '/webhooks'],
    ['webhook', `/webhooks/${hook.body.id}`],
    ['account', '/account'],
    ['teams', '/teams'],
    ['team', `/teams/${team}`],
    ['templates', '/templates'],
    ['template', `/templates/${template.body.id}`],
    ['audit log', '/audit'],
    ['search', '/search?content=10.0.0.1'],
    ['users', '/admin/users'],
    ['not found', '/no-such-page'],
  );
});

for (const size of SIZES) {
  test(`every page fits ${size.width}×${size.height}`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(size);
    await page.goto('/sign-in');
    const signInPage = await geometry(page);
    expect(signInPage.scrollWidth, 'the sign-in page pans sideways').toBeLessThanOrEqual(size.width);
    await signIn(page, admin!);
    await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();

    const found: Record<string, string> = {};
    for (const [name, path] of pages) {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      const g = await geometry(page);
      // A table turned into cards names each value with its column's header.
      if (size.phone && name === 'domains') await expect(page.locator('td[data-label="Serial"]').first()).toHaveText(/^\d{10}$/);
      if (g.scrollWidth > g.width) found[name] = `${g.scrollWidth} px wide`;
      if (size.phone && g.innerScrollers.length) found[name] = `scrolls sideways inside: ${g.innerScrollers.join(', ')}`;
      if (size.phone && g.barHeight > 64) found[name] = `top bar ${g.barHeight} px tall`;
      if (!size.phone && g.navRows !== 1) found[name] = `navigation on ${g.navRows} rows`;
      if (!size.phone && g.navOverflow > 0) found[name] = `navigation ${g.navOverflow} px too wide`;
    }
    expect(found, 'pages that pan sideways, a tall top bar, a navigation that wraps').toEqual({});

    const nav = page.getByRole('navigation', { name: 'Main' });
    if (size.phone) {
      // The navigation, the search and Sign out behind one button.
      const menu = page.getByRole('button', { name: 'Menu' });
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(nav).toBeHidden();
      await menu.click();
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await expect(page.locator(`#${await menu.getAttribute('aria-controls')}`)).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();
      await expect(page.getByRole('searchbox', { name: 'Search all zones' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(nav).toBeHidden();
      await expect(menu).toBeFocused();
      await menu.click();
      await nav.getByRole('link', { name: 'API tokens' }).click();
      await expect(page).toHaveURL(/\/tokens$/);
      await expect(nav).toBeHidden();
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      // `/` opens the menu at its search box.
      await page.keyboard.press('/');
      await expect(page.getByRole('searchbox', { name: 'Search all zones' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(nav).toBeHidden();
      // A tap on the page below the open menu closes it.
      await menu.click();
      await expect(nav).toBeVisible();
      await page.mouse.click(200, size.height - 20);
      await expect(nav).toBeHidden();
    } else {
      await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
      expect((await geometry(page)).navLinks).toBe(10);
      // Narrower than 1280 but above the Menu button's width, a link wraps, never out of sight.
      await page.setViewportSize({ width: 1100, height: 800 });
      expect(await geometry(page)).toMatchObject({ navOverflow: 0, scrollWidth: 1100 });
      await page.setViewportSize(size);
    }

    // The records: the page scrolls the list (no box inside), names whole, the editor in view.
    await page.goto(`/domains/${zone}`);
    await expect(page.getByTestId('records-count')).toHaveText('303 records');
    const list = page.getByTestId('records-scroll');
    expect(await list.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && getComputedStyle(el).overflowY !== 'auto')).toBe(true);
    const row = page.getByRole('row').filter({ hasText: '_sip._tcp' });
    await page.getByLabel('Filter by name').fill('_sip');
    const owner = row.locator('.c-name');
    await expect(owner).toContainText(`${LONG}.${zone}`);
    expect(await owner.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.getByRole('button', { name: `Edit ${LONG}.${zone} SRV` }).click();
    const editor = page.getByRole('form', { name: `Edit ${LONG}.${zone} SRV` });
    await expect(editor).toBeVisible();
    await expectInView(page, editor);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Filter by name').fill('');
    // A row far down the list: the page scrolls to it, and its editor opens in view.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const last = page.getByRole('button', { name: `Edit host00299.${zone} CNAME` });
    await expect(last).toBeVisible();
    await last.click();
    const deep = page.getByRole('form', { name: `Edit host00299.${zone} CNAME` });
    await expect(deep).toBeVisible();
    await expectInView(page, deep);
    expect((await geometry(page)).scrollWidth).toBeLessThanOrEqual(size.width);
  });
}
