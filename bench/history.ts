/**
 * Change-set figures: a PATCH of 1,000 RRsets as one change set beside
 * 1,000 single record writes; record writes/s with the history beside the same writes without
 * it; a page of the history with 100,000 change sets beside one with 100; and an IXFR of one
 * change beside an AXFR of the same 100k-record zone (bytes and time, with dig).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { loadConfig } from '../server/config';
import { nextSerial } from '../server/core/soa';
import { servicesFor } from '../server/services';
import { openStore } from '../server/store/open';
import { cli, startServer, tempDataDir, type ServerProcess } from '../server/testing/server-process';
import { ratio, type Row } from './table';
import { fillZone } from './fill';

const run = promisify(execFile);
const ms = (t: number) => `${t < 10 ? t.toFixed(1) : Math.round(t)} ms`;

/** Writes/s of `count` single-record change sets in process, beside the same writes with no history. */
async function historyCost(count: number): Promise<Row> {
  const dir = tempDataDir();
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
  const store = await openStore(config);
  const services = servicesFor(store, config);
  const { user } = await services.accounts.addUser('bench');
  const zone = await services.zones.create(user.id, { name: 'with.example' });
  const bare = await services.zones.create(user.id, { name: 'without.example' });
  let n = 0;
  const withOne = () => services.records.create(user.id, zone.name, { name: `h${n++}`, record_type: 'A', content: '192.0.2.1' });
  // The reference: the same rows and serial bumps, in one transaction each, without the change set.
  let m = 0;
  const withoutOne = () =>
    store.transaction(async (tx) => {
      const z = await tx.domains.lock((await tx.domains.byId(bare.id))!);
      const at = new Date().toISOString();
      await tx.records.insertMany([{ domain_id: z.id, name: `h${m++}`, record_type: 'A', content: '192.0.2.1', ttl: 3600, created_at: at, updated_at: at, disabled: 0 }]);
      await tx.domains.update(z, { serial_number: nextSerial(z.serial_number), updated_at: at });
    });
  // Interleaved rounds, so both see the same state of the write-ahead log and the disk.
  let withMs = 0;
  let withoutMs = 0;
  for (let round = 0; round < 5; round++) {
    let t = performance.now();
    for (let i = 0; i < count / 5; i++) await withOne();
    if (round > 0) withMs += performance.now() - t;
    t = performance.now();
    for (let i = 0; i < count / 5; i++) await withoutOne();
    if (round > 0) withoutMs += performance.now() - t;
  }
  const measured = (count / 5) * 4;
  const withHistory = measured / (withMs / 1000);
  const without = measured / (withoutMs / 1000);
  await store.close();
  return {
    name: 'record writes/s with history (in process, one at a time, fsync each)',
    value: `${Math.round(withHistory)} writes/s`,
    reference: `${Math.round(without)} writes/s without history`,
    ratio: ratio(withHistory, without),
  };
}

/** Fills the history of a zone with `count` small change sets straight through SQLite (setup only). */
function fillHistory(dataDir: string, zone: string, count: number): void {
  const db = new Database(path.join(dataDir, 'zonedeck.db'));
  const { id, serial_number } = db.prepare('select id, serial_number from domains where name = ?').get(zone) as { id: number; serial_number: number };
  const cs = db.prepare(
    "insert into change_sets (domain_id, serial_before, serial_after, created_at, source, actor_username, actor_credential, comment, settings, added_count, removed_count) values (?, ?, ?, ?, 'api', 'bench', 'token:1', '', '{}', 1, 0)",
  );
  const rec = db.prepare("insert into change_set_records (change_set_id, op, name, record_type, ttl, content) values (?, 1, ?, 'TXT', 300, 'x')");
  const at = new Date().toISOString();
  db.transaction(() => {
    // Older than the zone's real history, so the chain stays continuous at its end.
    for (let i = 0; i < count; i++) {
      const { lastInsertRowid } = cs.run(id, serial_number - 2 * count + i, serial_number - 2 * count + i + 1, at);
      rec.run(lastInsertRowid, `old${i}`);
    }
  })();
  db.close();
}

/** Bytes and time of a transfer as dig reports them. */
async function xfr(dns: number, ...args: string[]): Promise<{ bytes: number; records: number; ms: number }> {
  const t = performance.now();
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(dns), '+tcp', '+nocmd', '+noall', '+stats', ...args], { maxBuffer: 1 << 28 });
  const took = performance.now() - t;
  const m = /XFR size: (\d+) records \(messages \d+, bytes (\d+)\)/.exec(stdout);
  return { records: Number(m?.[1] ?? 0), bytes: Number(m?.[2] ?? 0), ms: took };
}

export async function benchHistory(): Promise<Row[]> {
  const rows: Row[] = [];
  const dataDir = tempDataDir();
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ LOG_LEVEL: 'warn', DNS_PORT: '0', RATE_LIMIT_TOKEN: 'off', RATE_LIMIT_ADDRESS: 'off' }, dataDir, { cpu: 1 });
    cli(dataDir, 'users', 'add', 'bench');
    const token = cli(dataDir, 'tokens', 'create', 'bench').at(-1)!;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const api = (p: string, init: RequestInit = {}) => fetch(`${server!.url}/api/v1${p}`, { ...init, headers });
    for (const z of ['bulk.example', 'single.example', 'h100.example', 'h100k.example', 'xfr.example']) await api('/domains', { method: 'POST', body: JSON.stringify({ name: z }) });

    // 1,000 RRsets in one PATCH vs 1,000 single writes.
    const rrsets = Array.from({ length: 1000 }, (_, i) => ({ name: `h${i}`, record_type: 'A', ttl: '300', changetype: 'REPLACE', records: [`192.0.2.${(i % 250) + 1}`] }));
    let t = performance.now();
    const res = await api('/domains/bulk.example/rrsets', { method: 'PATCH', body: JSON.stringify({ rrsets }) });
    const patchMs = performance.now() - t;
    if (res.status !== 200) throw new Error(`PATCH answered ${res.status}: ${await res.text()}`);
    t = performance.now();
    for (let i = 0; i < 1000; i++)
      await api('/domains/single.example/records', { method: 'POST', body: JSON.stringify({ name: `h${i}`, record_type: 'A', ttl: '300', content: `192.0.2.${(i % 250) + 1}` }) });
    const singleMs = performance.now() - t;
    rows.push({ name: 'PATCH of 1,000 RRsets, one change set', value: ms(patchMs), reference: `${ms(singleMs)} for 1,000 single POSTs`, ratio: ratio(patchMs, singleMs) });

    // A page of the history: 100k change sets vs 100.
    await server.stop();
    fillHistory(dataDir, 'h100.example', 100);
    fillHistory(dataDir, 'h100k.example', 100_000);
    fillZone(dataDir, 'xfr.example', 100_000);
    server = await startServer({ LOG_LEVEL: 'warn', DNS_PORT: '0', RATE_LIMIT_TOKEN: 'off', RATE_LIMIT_ADDRESS: 'off' }, dataDir, { cpu: 1 });
    const page = async (zone: string) => {
      const r = await autocannon({ url: `${server!.url}/api/v1/domains/${zone}/changes?per_page=50&page=2`, headers, connections: 10, duration: Number(process.env.BENCH_SECONDS ?? 5) });
      return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
    };
    const small = await page('h100.example');
    const big = await page('h100k.example');
    rows.push({
      name: 'history page (50 change sets), 100k change sets',
      value: `${Math.round(big.rps)} req/s, p50 ${big.p50} ms, p99 ${big.p99} ms`,
      reference: `${Math.round(small.rps)} req/s with 100 change sets`,
      ratio: ratio(big.rps, small.rps),
    });

    // IXFR of one change vs AXFR of a 100k-record zone.
    const before = ((await (await api('/domains/xfr.example')).json()) as { serial_number: number }).serial_number;
    await api('/domains/xfr.example/records', { method: 'POST', body: JSON.stringify({ name: 'changed', record_type: 'A', content: '192.0.2.9' }) });
    const dns = server.dnsPort!;
    const axfr = await xfr(dns, 'AXFR', 'xfr.example');
    const ixfr = await xfr(dns, `IXFR=${before}`, 'xfr.example');
    rows.push({
      name: 'IXFR of one change, 100k-record zone',
      value: `${ixfr.bytes} bytes, ${ixfr.records} records, ${ms(ixfr.ms)}`,
      reference: `AXFR: ${axfr.bytes} bytes, ${axfr.records} records, ${ms(axfr.ms)}`,
      ratio: ratio(ixfr.bytes, axfr.bytes),
    });
  } finally {
    await server?.stop();
  }
  rows.push(await historyCost(2000));
  return rows;
}
