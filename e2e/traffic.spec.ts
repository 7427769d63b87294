/**
 * In the dashboard: dig traffic of a known shape to a new zone, then its Traffic tab
 * shows exactly those numbers (totals by answer, the NXDOMAIN name on its list with a link to add
 * the record) and a rendered chart; the domain list shows the zone's sparkline with the same total.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { expect, screenshot, test } from './support/fixtures';

const run = promisify(execFile);

test('the Traffic tab shows the queries sent, by answer, with a chart and the top names', async ({ signedIn: page, user, server }) => {
  const zone = `t${randomBytes(4).toString('hex')}.test`;
  expect((await user.api.call('POST', '/domains', { name: zone })).status).toBe(201);
  expect((await user.api.call('POST', `/domains/${zone}/records`, { name: 'www', record_type: 'TXT', content: 'hello', ttl: '300' })).status).toBeLessThan(300);
  await new Promise((r) => setTimeout(r, 300)); // served within 100 ms (docs/dns.md)
  const dig = (...args: string[]) => run('dig', ['@127.0.0.1', '-p', String(server.dnsPort), '+norec', '+time=5', '+tries=1', ...args]).then((r) => r.stdout);
  const answers = await Promise.all([...Array.from({ length: 6 }, () => dig(`www.${zone}`, 'TXT')), ...Array.from({ length: 3 }, () => dig(`missing.${zone}`, 'A')), dig(`www.${zone}`, 'AAAA')]);
  expect(answers.filter((a) => a.includes('status: NOERROR'))).toHaveLength(7);
  expect(answers.filter((a) => a.includes('status: NXDOMAIN'))).toHaveLength(3);
  // Counted in the DNS thread and stored within STATS_FLUSH_MS (5 s).
  await expect.poll(async () => (await user.api.get(`/domains/${zone}/stats`)).totals.queries, { timeout: 15_000 }).toBe(10);

  await page.goto(`/domains/${zone}/traffic`);
  await expect(page).toHaveTitle(`${zone} · Traffic · zonedeck`);
  const totals = page.getByRole('definition');
  await expect(page.getByTestId('total-Queries').getByRole('definition')).toHaveText('10');
  await expect(page.getByTestId('total-NOERROR').getByRole('definition')).toHaveText('6');
  await expect(page.getByTestId('total-NODATA').getByRole('definition')).toHaveText('1');
  await expect(page.getByTestId('total-NXDOMAIN').getByRole('definition')).toHaveText('3');
  await expect(totals.first()).toBeVisible();
  // The chart drew: uPlot's canvas, sized, inside the labelled figure.
  const chart = page.getByRole('img', { name: /Queries per second to .* 10 queries in all/ });
  await expect(chart.locator('canvas')).toHaveCount(1);
  expect((await chart.locator('canvas').boundingBox())!.width).toBeGreaterThan(200);
  await expect(page.getByRole('table', { name: 'Queries by type' }).getByRole('row', { name: /TXT/ })).toContainText('6');

  const nx = page.getByRole('region', { name: 'Top NXDOMAIN names' });
  await expect(nx.getByRole('row', { name: new RegExp(`missing\\.${zone.replace('.', '\\.')}`) })).toContainText('3');
  await expect(page.getByRole('region', { name: 'Top names' }).getByRole('row', { name: new RegExp(`^www\\.`) })).toContainText('7');
  await screenshot(page, 'traffic');
  await nx.getByRole('link', { name: `Add a record at missing.${zone}` }).click();
  await expect(page).toHaveURL(new RegExp(`/domains/${zone}\\?name=missing$`));

  await page.goto('/domains');
  await expect(page.getByRole('row', { name: new RegExp(zone) }).getByRole('link', { name: /queries in the last 24 hours/ })).toContainText('10');
});
