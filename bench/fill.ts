/** Bench set-up: fills a zone straight through SQLite (the figures are measured through the API). */
import path from 'node:path';
import Database from 'better-sqlite3';
import { createServices } from '../server/services';
import { CLI_WRITE } from '../server/services/changes/change-sets';
import { openSqliteStore } from '../server/store/sqlite/sqlite';

/** Adds `count` A records (`host0`, `host1`, …) to `zone` in the SQLite store in `dataDir`; the server must be stopped. */
export function fillZone(dataDir: string, zone: string, count: number): void {
  const db = new Database(path.join(dataDir, 'zonedeck.db'));
  const { id } = db.prepare('select id from domains where name = ?').get(zone) as { id: number };
  const insert = db.prepare("insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values (?, ?, 'A', ?, 3600, ?, ?)");
  const at = new Date().toISOString();
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(id, `host${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, at, at);
  })();
  db.close();
}

/** Registers `count` single IPv4 addresses (192.0.2.1 …) to a user, straight through SQLite (set-up only). */
export function fillIps(dataDir: string, username: string, count: number): void {
  const db = new Database(path.join(dataDir, 'zonedeck.db'));
  db.pragma('busy_timeout = 5000');
  const { id } = db.prepare('select id from users where username = ?').get(username) as { id: number };
  const insert = db.prepare("insert into ips (user_id, address, cidr, active, created_at) values (?, ?, 32, 1, '2026-01-01T00:00:00.000Z')");
  db.transaction(() => {
    for (let i = 1; i <= count; i++) insert.run(id, `192.0.${2 + (i >> 8)}.${i & 255}`);
  })();
  db.close();
}

/**
 * Fills a data dir with `zones` zones (`zone0.test` …) of `perZone` A records each (`host0` …), each
 * zone made and imported through the services, as the API would; returns a token of their user.
 */
export async function fillZones(dir: string, zones: number, perZone: number): Promise<string> {
  const services = createServices(await openSqliteStore(path.join(dir, 'zonedeck.db')), { nameservers: ['ns1.zonedeck.test', 'ns2.zonedeck.test'], nsTtl: 3600 });
  const { user } = await services.accounts.addUser('bench');
  for (let z = 0; z < zones; z++) {
    const zone = await services.zones.create(user.id, { name: `zone${z}.test` });
    const lines: string[] = [];
    for (let i = 0; i < perZone; i++) lines.push(`host${i} 3600 IN A 10.${z & 255}.${(i >> 8) & 255}.${i & 255}`);
    await services.zoneFiles.importInto(zone, (tx) => services.zones.owned(user.id, zone.name, tx), `${lines.join('\n')}\n`, 'merge', CLI_WRITE);
  }
  const { token } = await services.accounts.createToken(user.id, 'bench');
  await services.close();
  return token;
}
