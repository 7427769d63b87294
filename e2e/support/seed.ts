/**
 * Test and benchmark data written through the services, as the admin CLI does, while the
 * server runs (its API reads them at once): a zone's records are one change set (a zone file
 * import), with its serial and history, as for any writer. One process for many rows, where one
 * CLI call per row would take minutes.
 *
 *   DATA_DIR=… node --import tsx e2e/support/seed.ts '<json>'
 *   json: {"user": "alice", "ips": [{"cidr": "192.0.2.1", "active": true}],
 *          "zone": {"name": "big.test", "records": 10000}}
 */
import { loadConfig } from '../../server/config';
import { createServices } from '../../server/services';
import { CLI_WRITE } from '../../server/services/changes/change-sets';
import { openStore } from '../../server/store/open';

interface Seed {
  user: string;
  ips?: Array<{ cidr: string; active?: boolean }>;
  zone?: { name: string; records: number };
}

const seed = JSON.parse(process.argv[2] ?? '{}') as Seed;
const config = loadConfig();
const services = createServices(await openStore(config), { nameservers: config.nameservers, nsTtl: 3600 });
const user = await services.accounts.userByName(seed.user);
for (const ip of seed.ips ?? []) await services.ips.add(user.id, ip.cidr, ip.active ?? true);
if (seed.zone) {
  const zone = await services.zones.create(user.id, { name: seed.zone.name });
  const types = ['A', 'AAAA', 'TXT', 'MX', 'CNAME'];
  // Each name gets one type, so no CNAME rule is at stake.
  const lines: string[] = [];
  for (let i = 0; i < seed.zone.records; i++) {
    const type = i === 0 ? 'TXT' : types[i % types.length]!;
    const content =
      type === 'A'
        ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
        : type === 'AAAA'
          ? `2001:db8::${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}`
          : type === 'TXT'
            ? `"v=spf1 include:_spf${i}.example.net -all"`
            : type === 'MX'
              ? `10 mx${i}.example.net.`
              : `target${i}.example.net.`;
    lines.push(`${i === 0 ? '@' : `host${String(i).padStart(5, '0')}`} 3600 IN ${type} ${content}`);
  }
  await services.zoneFiles.importInto(zone, (tx) => services.zones.owned(user.id, zone.name, tx), `${lines.join('\n')}\n`, 'merge', { ...CLI_WRITE, comment: 'seeded' });
}
await services.close();
process.stdout.write('seeded\n');
