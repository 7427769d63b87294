/**
 * `nameservers move`: zones moved to the CLI's NAMESERVERS, only those with the set --from names,
 * only --zones; --dry-run changes nothing; the zone file then shows the new apex NS set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDataDir } from '../testing/server-process';

const NEW = { NAMESERVERS: 'ns1.example.net,ns2.example.net' };
let dataDir: string;

async function run(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const r = await runCli(dataDir, args, env);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim().split('\n');
}
/** The apex NS set as `zones export` prints it. */
const apexNs = async (zone: string) =>
  (await run(['zones', 'export', zone]))
    .filter((l) => /^@\s+\d+\s+IN\s+NS\s/.test(l))
    .map((l) => l.split(/\s+/).at(-1))
    .sort();

beforeAll(async () => {
  dataDir = tempDataDir();
  await run(['users', 'add', 'alice', '--password', 'alice password', '--init']);
  const file = path.join(dataDir, 'empty.zone');
  fs.writeFileSync(file, '');
  for (const zone of ['a.test', 'b.test', 'c.test']) await run(['zones', 'import', 'alice', zone, file]);
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('nameservers move', () => {
  it('shows first with --dry-run, then moves the zones named, then the rest', async () => {
    expect(await run(['nameservers', 'move', '--dry-run', '--zones', 'a.test,b.test', '--from', 'ns1.zonedeck.test,ns2.zonedeck.test'], NEW)).toEqual([
      'a.test: would move from ns1.zonedeck.test, ns2.zonedeck.test to ns1.example.net, ns2.example.net',
      'b.test: would move from ns1.zonedeck.test, ns2.zonedeck.test to ns1.example.net, ns2.example.net',
      '2 zones would move to ns1.example.net, ns2.example.net',
    ]);
    expect(await apexNs('a.test')).toEqual(['ns1.zonedeck.test.', 'ns2.zonedeck.test.']);

    expect(await run(['nameservers', 'move', '--zones', 'a.test'], NEW)).toEqual([
      'a.test: moved from ns1.zonedeck.test, ns2.zonedeck.test to ns1.example.net, ns2.example.net',
      '1 zone moved to ns1.example.net, ns2.example.net',
    ]);
    expect(await apexNs('a.test')).toEqual(['ns1.example.net.', 'ns2.example.net.']);
    expect(await apexNs('b.test')).toEqual(['ns1.zonedeck.test.', 'ns2.zonedeck.test.']);

    const rest = await run(['nameservers', 'move'], NEW);
    expect(rest.at(-1)).toBe('2 zones moved to ns1.example.net, ns2.example.net');
    expect(await apexNs('c.test')).toEqual(['ns1.example.net.', 'ns2.example.net.']);
    expect((await run(['nameservers', 'move'], NEW)).at(-1)).toBe('0 zones moved to ns1.example.net, ns2.example.net');
  });
});
