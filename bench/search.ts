/**
 * The search across zones: the first page of a search over 1,000 zones
 * × 500 records (500,000 records) on SQLite — by exact content, by content substring, by name
 * prefix and by an address network — each beside a page of one zone's record list, measured in the
 * same run; and what keeping the search index (migration 0020) adds to a record insert.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../server/config';
import { servicesFor } from '../server/services';
import { openStore } from '../server/store/open';
import { tempDataDir } from '../server/testing/server-process';
import { ratio, type Row } from './table';

const ZONES = 1000;
const PER_ZONE = 500;
/** Records inserted to measure what the search index adds to a write. */
const EXTRA = 20_000;

/** Median of `n` timed runs, in ms. */
async function median(n: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)]!;
}

export async function benchSearch(): Promise<Row[]> {
  const dir = tempDataDir();
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', MAX_ZONES_PER_USER: String(ZONES + 1) });
  let store = await openStore(config);
  let services = servicesFor(store, config);
  const { user } = await services.accounts.addUser('bench');
  for (let z = 0; z < ZONES; z++) await services.zones.create(user.id, { name: `z${z}.example` });
  await store.close();
  // 500 A records per zone, straight through SQLite (set-up only); one address in every zone.
  const db = new Database(path.join(dir, 'zonedeck.db'));
  const insert = db.prepare("insert into records (domain_id, name, record_type, content, ttl, created_at, updated_at) values (?, ?, 'A', ?, 300, ?, ?)");
  const at = new Date().toISOString();
  db.transaction(() => {
    for (const { id } of db.prepare('select id from domains').all() as { id: number }[]) {
      for (let i = 0; i < PER_ZONE; i++) insert.run(id, `host${i}`, `10.${id & 255}.${i >> 8}.${i & 255}`, at, at);
    }
  })();
  // The write cost of the search index (migration 0020): record inserts with the triggers that keep
  // it, and the same inserts without them (the triggers dropped in the transaction); both rolled back.
  const zoneId = (db.prepare("select id from domains where name = 'z0.example'").get() as { id: number }).id;
  const timedInserts = (withIndex: boolean) => {
    db.exec('begin');
    try {
      if (!withIndex) for (const t of ['insert', 'delete', 'update']) db.exec(`drop trigger records_trigram_${t}`);
      const t0 = performance.now();
      for (let i = 0; i < EXTRA; i++) insert.run(zoneId, `extra${i}`, `10.200.${(i >> 8) & 255}.${i & 255}`, at, at);
      return performance.now() - t0;
    } finally {
      db.exec('rollback');
    }
  };
  const withIndex: number[] = [];
  const withoutIndex: number[] = [];
  for (let i = 0; i < 3; i++) {
    withIndex.push(timedInserts(true));
    withoutIndex.push(timedInserts(false));
  }
  const mid = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
  const perInsert = (ms: number) => `${((ms * 1000) / EXTRA).toFixed(1)} µs`;
  db.close();
  store = await openStore(config);
  services = servicesFor(store, config);
  const zone = (await store.domains.byName('z500.example'))!;
  const asker = { userId: user.id };
  const w = { offset: 0, limit: 50 };
  const list = await median(9, () => store.records.page(zone.id, {}, w));
  const rows: Row[] = [];
  const fmt = (t: number) => `${t < 10 ? t.toFixed(1) : Math.round(t)} ms`;
  for (const [what, q] of [
    ['exact content', { content: '10.7.1.44', match: 'exact' as const }],
    ['content substring', { content: '.1.44', match: 'contains' as const }],
    ['name prefix', { name: 'host44.z5', match: 'prefix' as const }],
    ['address network (CIDR)', { content: '10.7.0.0/16' }],
  ] as const) {
    const t = await median(5, () => services.recordSearch.search(asker, q, w));
    rows.push({
      name: `search ${ZONES} zones × ${PER_ZONE} records, first page of 50: ${what} (SQLite, in process)`,
      value: fmt(t),
      reference: `${fmt(list)} one zone's list page`,
      ratio: ratio(t, list),
    });
  }
  rows.push({
    name: `record insert, ${EXTRA} in one transaction, keeping the search index (SQLite triggers)`,
    value: `${perInsert(mid(withIndex))} each`,
    reference: `${perInsert(mid(withoutIndex))} each without the index`,
    ratio: ratio(mid(withIndex), mid(withoutIndex)),
  });
  await store.close();
  return rows;
}
