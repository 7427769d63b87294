import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dig } from './support/dns-checks';
import { expect, screenshot, test } from './support/fixtures';

/** delv against this run's DNS port, with a static trust anchor for `anchorZone` only. */
function delv(dataDir: string, port: number, anchorZone: string, key: string, name: string, type: string): string {
  const file = path.join(dataDir, `anchor-${anchorZone}.conf`);
  fs.writeFileSync(file, `trust-anchors {\n  "${anchorZone}." static-key 257 3 13 "${key}";\n};\n`);
  try {
    return execFileSync('delv', ['@127.0.0.1', '-p', String(port), '-a', file, `+root=${anchorZone}`, name, type], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return `${err.stdout ?? ''}${err.stderr ?? ''}`;
  }
}

test('DNSSEC: a hosted child’s DS goes into its hosted parent of the same owner by itself, and the chain of trust holds', async ({ signedIn: page, user, server }) => {
  const parent = `${user.username}.test`;
  const child = `sub.${parent}`;
  for (const name of [parent, child]) {
    expect((await user.api.call('POST', '/domains', { name, dnssec_enabled: true })).status).toBe(201);
  }
  expect((await user.api.call('POST', `/domains/${child}/records`, { name: 'www', record_type: 'A', content: '192.0.2.44' })).status).toBe(200);
  const childApi = await user.api.get(`/domains/${child}`);
  const ds = childApi.ds_records[0];
  const parentKey = (await user.api.get(`/domains/${parent}`)).dnskey_records[0].split(' ').at(-1);

  // The parent did not delegate the child: zonedeck adds the NS set and the DS together, in the parent's history.
  // The server's rollover driver makes that change within seconds of the child being signed; the page shows it once made.
  await expect.poll(async () => (await user.api.records(parent, 'name=sub')).some((r) => r.record_type === 'DS'), { timeout: 30_000 }).toBe(true);
  await page.goto(`/domains/${child}`);
  const card = page.getByTestId('parent-ds');
  await expect(card).toContainText(`${parent} (hosted here) publishes this DS at ${child}`);
  await screenshot(page, 'editor-dnssec-parent-ds');

  const at = await user.api.records(parent, 'name=sub');
  expect(at.filter((r) => r.record_type === 'DS').map((r) => r.content)).toEqual([`${ds.key_tag} 13 2 ${ds.digest}`]);
  const childNs = (await user.api.records(child, 'name=@'))
    .filter((r) => r.record_type === 'NS')
    .map((r) => r.content)
    .sort();
  expect(
    at
      .filter((r) => r.record_type === 'NS')
      .map((r) => r.content)
      .sort(),
  ).toEqual(childNs);
  const [change] = await user.api.get(`/domains/${parent}/changes`);
  expect(change).toMatchObject({ source: 'dnssec', comment: `the DS of ${child} follows its keys: ${ds.key_tag} 13 2 ${ds.digest.toUpperCase()}` });
  expect(change.added.map((r: { record_type: string }) => r.record_type).sort()).toEqual([...childNs.map(() => 'NS'), 'DS'].sort());

  // The name server answers the DS from the parent, signed by the parent's key.
  await expect.poll(() => dig(server, child, 'DS').map((a) => a.content.replace(/\s/g, ''))).toEqual([`${ds.key_tag}132${ds.digest}`]);
  const signed = execFileSync('dig', ['@127.0.0.1', '-p', String(server.dnsPort), '+dnssec', '+norecurse', child, 'DS'], { encoding: 'utf8' });
  expect(signed).toMatch(new RegExp(`RRSIG\\s+DS 13 \\d+ \\d+ \\d+ \\d+ \\d+ ${parent.replace(/\./g, '\\.')}\\.`));

  // delv, trusting the parent's key alone, validates an answer of the child through the DS.
  const out = delv(server.dataDir, server.dnsPort!, parent, parentKey, `www.${child}`, 'A');
  expect(out).toMatch(/; fully validated/);
  expect(out).toMatch(/192\.0\.2\.44/);
});
