/**
 * axe-core on every page and dialog of the dashboard, at a desktop and a phone size:
 * no serious or critical violation.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ApiClient } from './support/api-client';
import { cli, expect, test } from './support/fixtures';

async function serious(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join('; ')})`,
    );
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`no serious axe violation on any page at ${size.width}×${size.height}`, async ({ page, signedIn, user, server }) => {
    // Every page and dialog in one test: ~35 s on a 2-core machine, so more room than the 60 s default.
    test.setTimeout(240_000);
    void signedIn;
    await page.setViewportSize(size);
    const zone = `${user.username}-a11y.test`;
    expect((await user.api.call('POST', '/domains', { name: zone, dnssec_enabled: true })).status).toBe(201);
    await user.api.call('POST', `/domains/${zone}/records`, { name: 'www', record_type: 'A', content: '192.0.2.1' });
    await user.api.call('POST', `/domains/${zone}/records`, { name: 'www', record_type: 'A', content: '192.0.2.2', disabled: true });
    const team = `${user.username}-a11y`;
    expect((await user.api.call('POST', '/teams', { name: team })).status).toBe(201);
    // A pending invitation on the team's page, and one waiting for the user (the Teams page and the navigation's count).
    expect((await user.api.call('POST', `/teams/${team}/members`, { username: `${user.username}-guest`, role: 'viewer' })).status).toBe(201);
    const host = `${user.username}-host`;
    cli(server, 'users', 'add', host);
    const hostApi = new ApiClient(server.url, cli(server, 'tokens', 'create', host).at(-1)!);
    expect((await hostApi.call('POST', '/teams', { name: host })).status).toBe(201);
    expect((await hostApi.call('POST', `/teams/${host}/members`, { username: user.username, role: 'editor' })).status).toBe(201);
    const template = await user.api.call('POST', '/templates', { name: `${user.username}-mail`, rrsets: [{ name: '@', record_type: 'MX', records: ['10 mx.{zone}'] }] });
    expect(template.status).toBe(201);
    const found: Record<string, string[]> = {};
    for (const [name, path] of [
      ['domains', '/domains'],
      ['editor', `/domains/${zone}`],
      ['history', `/domains/${zone}/history`],
      ['import', `/domains/${zone}/import`],
      ['traffic', `/domains/${zone}/traffic`],
      ['ips', '/ips'],
      ['tokens', '/tokens'],
      ['tsig keys', '/tsig-keys'],
      ['account', '/account'],
      ['teams', '/teams'],
      ['team', `/teams/${team}`],
      ['audit log', '/audit'],
      ['templates', '/templates'],
      ['template', `/templates/${template.body.id}`],
      ['search across zones', '/search?content=192.0.2.1'],
      ['users (not an administrator)', '/admin/users'],
      ['not found', '/no-such-page'],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      found[name] = await serious(page);
    }
    await page.goto('/teams');
    await expect(page.getByRole('region', { name: 'Your invitations' })).toBeVisible();
    found['teams with an invitation'] = await serious(page);
    await page.goto(`/teams/${team}`);
    await expect(page.getByRole('region', { name: `Pending invitations to ${team}` })).toBeVisible();
    found['team with a pending invitation'] = await serious(page);
    if (size.width < 1100) {
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      found['open menu'] = await serious(page);
    }
    await page.goto(`/domains/${zone}`);
    await page.getByRole('button', { name: '+ Add record' }).click();
    found['add record form'] = await serious(page);
    await page.getByRole('button', { name: 'Delete domain' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    found['delete dialog'] = await serious(page);
    expect(Object.fromEntries(Object.entries(found).filter(([, v]) => v.length > 0))).toEqual({});
  });
}
