/**
 * Test and benchmark data written straight through the services, as the admin CLI does,
 * while the server runs (it sees the changes at once). One process for many rows, where
 * one CLI call per row would take minutes.
 *
 *   DATA_DIR=… node --import tsx e2e/support/seed.ts '<json>'
 *   json: {"user": "alice", "ips": [{"cidr": "192.0.2.1", "active": true}],
 *          "zone": {"name": "big.test", "records": 10000}}
 */
import { APEX } from '../../server/core/domain-name';
import { loadConfig } from '../../server/config';
import { createServices } from '../../server/services';
import { openStore } from '../../server/store/open';

interface Seed {
  user: string;
  ips?: Array<{ cidr: string; active?: boolean }>;
  zone?: { name: string; records: number };
}

const seed = JSON.parse(process.argv[2] ?? '{}') as Seed;
const config = loadConfig();
const store = await openStore(config);
const services = createServices(store, { nameservers: config.nameservers, nsTtl: 3600 });
const user = await services.accounts.userByName(seed.user);
for (const ip of seed.ips ?? []) await services.ips.add(user.id, ip.cidr, ip.active ?? true);
if (seed.zone) {
  const zone = await services.zones.create(user.id, { name: seed.zone.name });
  const at = new Date().toISOString();
  const types = ['A', 'AAAA', 'TXT', 'MX', 'CNAME'];
  // Bulk rows in one transaction; each name gets one type, so no CNAME rule is at stake.
  await store.transaction(async (tx) => {
    for (let i = 0; i < seed.zone!.records; i++) {
      const type = i === 0 ? 'TXT' : types[i % types.length]!;
      const content =
        type === 'A' ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : type === 'AAAA' ? `2001:db8::${i.toString(16)}` : type === 'TXT' ? `v=spf1 include:_spf${i}.example.net -all` : type === 'MX' ? `10 mx${i}.example.net` : `target${i}.example.net`;
      await tx.records.insert({ domain_id: zone.id, name: i === 0 ? APEX : `host${String(i).padStart(5, '0')}`, record_type: type, content, ttl: 3600, created_at: at, updated_at: at, disabled: 0 });
    }
  });
}
await store.close();
process.stdout.write('seeded\n');
