/**
 * The DNS index's start-up snapshot (index-snapshot.ts), on SQLite and PostgreSQL: a
 * start builds the zones unchanged since the last start from the file beside the database, and
 * every zone it builds is the zone its records make now — after a change through the API, a write
 * straight to the store that no service made (no new serial, no event), a zone deleted and made
 * again under its name, and a file damaged, cut short or from another schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SNAPSHOT_FILE, SnapshotReader, SnapshotWriter } from '../../dns/index/index-snapshot';
import { resolve } from '../../dns/index/resolve';
import { RCODE, T } from '../../dns/index/rrset';
import { Zone } from '../../dns/index/zone';
import { entryShape } from '../../dns/index/zone-names';
import { ZoneIndex } from '../../dns/index/zone-index';
import type { StartupLoad } from '../../dns/sync/startup-load';
import type { SnapshotFaultKind } from '../../dns/sync/sync-deps';
import { syncZones } from '../../dns/sync/zone-sync';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { IDENTITY } from '../../testing/zone-fixture';

let t: TestApp;
let file: string;
const ZONES = ['one.test', 'two.test', 'three.test'];

beforeAll(async () => {
  // ALIAS records need a resolver configured; nothing here asks it (the index is built with no watcher).
  t = await createTestApp({ RESOLVER: '127.0.0.1:9' });
  file = path.join(t.dir, SNAPSHOT_FILE);
  await t.user('alice');
  for (const name of ZONES) {
    expect((await t.request('POST', '/api/v1/domains', { body: { name } })).status).toBe(201);
    const lines = [
      // A name of many rows over more than one type, written out of type order.
      'multi 300 IN TXT "first"',
      'multi 300 IN A 192.0.2.1',
      'multi 300 IN TXT "second"',
      // Text that is not plain ASCII, quotes and a backslash, kept octet for octet.
      'text 300 IN TXT "caf\\195\\169 \\"quoted\\" back\\\\slash" "two"',
      'sub 300 IN NS ns1.example.net.',
      'glue.sub 300 IN A 192.0.2.53',
      'old 300 IN DNAME new.example.net.',
      '* 300 IN MX 10 mail.example.net.',
      '@ 300 IN TXT "apex"',
    ];
    for (let i = 0; i < 1500; i++) lines.push(`h${i} 60 IN A 10.0.${i >> 8}.${i & 255}`);
    const res = await t.request('POST', `/api/v1/domains/${name}/zone`, { raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'text/dns' } });
    expect(res.status).toBeLessThan(300);
  }
  // A disabled record is not served, from the store or from the snapshot.
  expect((await t.request('POST', '/api/v1/domains/one.test/records', { body: { name: 'quiet', record_type: 'A', content: '192.0.2.99', disabled: true } })).status).toBe(200);
  // An ALIAS owner is kept as objects, not an entry: the snapshot files its rows.
  const flat = await t.request('POST', '/api/v1/domains/one.test/records', { body: { name: 'flat', record_type: 'ALIAS', content: 'target.example.net.' } });
  expect(flat.status, await flat.clone().text()).toBe(200);
});
afterAll(() => t?.close());

/** Every name of the zone with its RRsets in their order: type, TTL and data. */
const dump = (zone: Zone) =>
  [...zone.nodes.entries()]
    .map(
      ([name, node]) => [name, [...node.entries()].map(([type, set]) => [type, set.ttl, set.data.map((d) => (d instanceof Uint8Array ? Buffer.from(d).toString('hex') : JSON.stringify(d)))])] as const,
    )
    .sort((x, y) => (x[0] < y[0] ? -1 : 1));

/** A start of the DNS index on the test app's store, with the snapshot beside it: how it loaded, and the index. */
async function start(): Promise<{ startup: Omit<StartupLoad, 'ms'>; index: ZoneIndex; faults: SnapshotFaultKind[] }> {
  const index = new ZoneIndex();
  const faults: SnapshotFaultKind[] = [];
  const hooks = { snapshotFault: (fault: SnapshotFaultKind) => void faults.push(fault) };
  const sync = await syncZones({ store: t.services.store, events: t.services.events, index, identity: IDENTITY, reconcileMs: 3_600_000, snapshot: file, hooks });
  await sync.loaded;
  await sync.snapshotWritten;
  sync.stop();
  const { ms, ...startup } = sync.startup;
  expect(ms).toBeGreaterThanOrEqual(0);
  return { startup, index, faults };
}

/** Each zone of the index is the zone its served records make now, when handed over all at once. */
async function expectAsStored(index: ZoneIndex): Promise<void> {
  for (const name of ZONES) {
    const domain = (await t.services.store.domains.byName(name))!;
    const rows = (await t.services.store.records.byDomain(domain.id)).filter((r) => !r.disabled);
    expect(dump(index.get(name)!), name).toEqual(dump(new Zone(domain, rows, IDENTITY)));
  }
}

describe('the start-up snapshot', () => {
  it('is written by a start, and the next start builds every unchanged zone from it, answering the same', async () => {
    fs.rmSync(file, { force: true });
    const first = await start();
    expect(first.startup).toEqual({ restored: 0, read: 3, fault: 'no snapshot yet', written: 3 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const second = await start();
    expect(second.startup).toEqual({ restored: 3, read: 0, fault: null, written: 3 });
    await expectAsStored(second.index);
    const answer = (qname: string, qtype: number) => resolve(second.index, { qname, qtype });
    expect((answer('text.two.test', T.TXT).answer[0]!.data[0] as Uint8Array[]).map((b) => Buffer.from(b).toString())).toEqual(['café "quoted" back\\slash', 'two']);
    expect([...second.index.get('two.test')!.nodes.get('multi.two.test')!.keys()]).toEqual([T.TXT, T.A]);
    // The wildcard's MX stands for a name with only a disabled record: no A there.
    expect(answer('quiet.one.test', T.A).answer).toEqual([]);
    expect(answer('h1499.three.test', T.A).answer[0]!.data).toEqual(['10.0.5.219']);
    expect(answer('x.old.one.test', T.A).answer[0]!.type).toBe(T.DNAME);
    expect(answer('www.glue.sub.one.test', T.A).authority[0]!.type).toBe(T.NS);
    expect(answer('any.one.test', T.MX).answer[0]!.name).toBe('any.one.test');
  });

  it('reads from the store a zone changed since, through the API or straight in the store', async () => {
    await start();
    // Through the API: a new serial and a change event.
    expect((await t.request('POST', '/api/v1/domains/one.test/records', { body: { name: 'added', record_type: 'A', content: '192.0.2.77' } })).status).toBe(200);
    let s = await start();
    expect(s.startup).toMatchObject({ restored: 2, read: 1 });
    expect(resolve(s.index, { qname: 'added.one.test', qtype: T.A }).answer[0]!.data).toEqual(['192.0.2.77']);
    await expectAsStored(s.index);

    // Straight in the store, as no service writes (the serial stays): a content, a disabled flag, a deletion, an insertion.
    const two = (await t.services.store.domains.byName('two.test'))!;
    const serial = two.serial_number;
    const h7 = (await t.services.store.records.atName(two.id, 'h7'))[0]!;
    await t.forge.records.update(h7.id, { content: '203.0.113.7' });
    s = await start();
    expect(s.startup).toMatchObject({ restored: 2, read: 1 });
    expect(resolve(s.index, { qname: 'h7.two.test', qtype: T.A }).answer[0]!.data).toEqual(['203.0.113.7']);
    expect((await t.services.store.domains.byName('two.test'))!.serial_number).toBe(serial);

    const three = (await t.services.store.domains.byName('three.test'))!;
    const h8 = (await t.services.store.records.atName(three.id, 'h8'))[0]!;
    await t.forge.records.update(h8.id, { disabled: 1 });
    s = await start();
    expect(s.startup).toMatchObject({ restored: 2, read: 1 });
    expect(resolve(s.index, { qname: 'h8.three.test', qtype: T.A }).answer).toEqual([]);

    await t.forge.records.deleteMany([(await t.services.store.records.atName(three.id, 'h9'))[0]!.id]);
    s = await start();
    expect(s.startup).toMatchObject({ restored: 2, read: 1 });
    expect(resolve(s.index, { qname: 'h9.three.test', qtype: T.A }).answer).toEqual([]);

    const now = new Date().toISOString();
    await t.forge.records.insertMany([{ domain_id: two.id, name: 'fresh', record_type: 'A', content: '198.51.100.1', ttl: 60, disabled: 0, created_at: now, updated_at: now }]);
    s = await start();
    expect(s.startup).toMatchObject({ restored: 2, read: 1 });
    expect(resolve(s.index, { qname: 'fresh.two.test', qtype: T.A }).answer[0]!.data).toEqual(['198.51.100.1']);
    await expectAsStored(s.index);
  });

  it('reads from the store a zone deleted and made again under its name', async () => {
    await start();
    expect((await t.request('DELETE', '/api/v1/domains/three.test')).status).toBe(200);
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'three.test' } })).status).toBe(201);
    expect((await t.request('POST', '/api/v1/domains/three.test/records', { body: { name: 'h1', record_type: 'A', content: '192.0.2.200' } })).status).toBe(200);
    const s = await start();
    expect(s.startup).toMatchObject({ restored: 2, read: 1 });
    expect(resolve(s.index, { qname: 'h1.three.test', qtype: T.A }).answer[0]!.data).toEqual(['192.0.2.200']);
    expect(resolve(s.index, { qname: 'h2.three.test', qtype: T.A }).rcode).toBe(RCODE.NXDOMAIN);
    await expectAsStored(s.index);
  });

  it('is brought up to date while the server runs, from the store and not the zones served, so the next start reads none', async () => {
    await start();
    const index = new ZoneIndex();
    const sync = await syncZones({ store: t.services.store, events: t.services.events, index, identity: IDENTITY, reconcileMs: 3_600_000, snapshot: file });
    try {
      await sync.loaded;
      await sync.snapshotWritten;
      expect(await sync.refreshSnapshot()).toEqual({ kept: 3, read: 0, written: false });
      // Through the API: the running index hears of it.
      expect((await t.request('POST', '/api/v1/domains/two.test/records', { body: { name: 'live', record_type: 'A', content: '192.0.2.88' } })).status).toBe(200);
      await sync.settled();
      expect(resolve(index, { qname: 'live.two.test', qtype: T.A }).answer[0]!.data).toEqual(['192.0.2.88']);
      // Straight in the store: the running index never hears of it, so filing the served zone under
      // the tag now stored would lose this write for good.
      const one = (await t.services.store.domains.byName('one.test'))!;
      await t.forge.records.update((await t.services.store.records.atName(one.id, 'h10'))[0]!.id, { content: '203.0.113.10' });
      expect(resolve(index, { qname: 'h10.one.test', qtype: T.A }).answer[0]!.data).toEqual(['10.0.0.10']);
      // What a process stopped while writing left behind goes; a refresh already running is joined.
      const leftover = `${file}.4194311.tmp`;
      fs.writeFileSync(leftover, 'half a snapshot');
      const refreshing = sync.refreshSnapshot();
      expect(sync.refreshSnapshot()).toBe(refreshing);
      expect(await refreshing).toEqual({ kept: 1, read: 2, written: true });
      expect(fs.existsSync(leftover)).toBe(false);
      // The file it replaced is closed (on the thread pool): its disk space is given back, not held by a deleted file left open.
      const heldDeleted = () =>
        fs.readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${file} (deleted)`);
          } catch {
            return false;
          }
        });
      await vi.waitFor(() => expect(heldDeleted()).toEqual([]), { timeout: 5000, interval: 10 });
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(await sync.refreshSnapshot()).toEqual({ kept: 3, read: 0, written: false });
    } finally {
      sync.stop();
    }
    const s = await start();
    expect(s.startup).toEqual({ restored: 3, read: 0, fault: null, written: 3 });
    expect(resolve(s.index, { qname: 'live.two.test', qtype: T.A }).answer[0]!.data).toEqual(['192.0.2.88']);
    expect(resolve(s.index, { qname: 'h10.one.test', qtype: T.A }).answer[0]!.data).toEqual(['203.0.113.10']);
    await expectAsStored(s.index);
  });

  it('is refreshed on its own once a zone changed', async () => {
    await start();
    const sync = await syncZones({ store: t.services.store, events: t.services.events, index: new ZoneIndex(), identity: IDENTITY, reconcileMs: 3_600_000, snapshot: file, refreshMs: 50 });
    try {
      await sync.snapshotWritten;
      const mtime = fs.statSync(file).mtimeMs;
      expect((await t.request('POST', '/api/v1/domains/three.test/records', { body: { name: 'timed', record_type: 'A', content: '192.0.2.89' } })).status).toBe(200);
      await vi.waitFor(() => expect(fs.statSync(file).mtimeMs).not.toBe(mtime), { timeout: 5000, interval: 20 });
    } finally {
      sync.stop();
    }
    const s = await start();
    expect(s.startup).toEqual({ restored: 3, read: 0, fault: null, written: 3 });
    expect(resolve(s.index, { qname: 'timed.three.test', qtype: T.A }).answer[0]!.data).toEqual(['192.0.2.89']);
  });

  it('reads a zone whose block is damaged from the store, and a file cut short or of another schema not at all', async () => {
    await start();
    const reader = SnapshotReader.open(file, await t.services.store.schemaVersion());
    if (typeof reader === 'string') throw new Error(reader);
    const two = (await t.services.store.domains.byName('two.test'))!;
    const entry = reader.find(two.id, 'two.test', (await t.services.store.records.contentTags()).get(two.id))!;
    reader.close();
    expect(entry.records).toBeGreaterThan(1500);
    // One octet of a record's content, changed: the block's CRC no longer holds.
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('10.0.3.1', entry.offset);
    expect(at).toBeGreaterThan(entry.offset);
    bytes[at + 5] = '9'.charCodeAt(0);
    fs.writeFileSync(file, bytes);
    let s = await start();
    expect(s.startup.restored).toBe(2);
    expect(s.startup.read).toBe(1);
    expect(s.startup.fault).toMatch(/two\.test is damaged/);
    // Told as it happened, for /metrics: one zone's block, not the file.
    expect(s.faults).toEqual(['zone_damaged']);
    expect(resolve(s.index, { qname: 'h769.two.test', qtype: T.A }).answer[0]!.data).toEqual(['10.0.3.1']);
    await expectAsStored(s.index);

    // The start wrote the file anew, whole again; cut short, it is not used at all.
    fs.truncateSync(file, fs.statSync(file).size - 10);
    s = await start();
    expect(s.startup).toMatchObject({ restored: 0, read: 3, written: 3 });
    expect(s.startup.fault).toMatch(/not used/);
    expect(s.faults).toEqual(['unreadable']);

    // Written at another schema: not used.
    const other = SnapshotWriter.create(file, 'an-older-schema');
    await other.finish();
    s = await start();
    expect(s.startup).toMatchObject({ restored: 0, read: 3 });
    expect(s.startup.fault).toMatch(/written at schema an-older-schema/);
    expect(s.faults).toEqual(['unreadable']);
    await expectAsStored(s.index);
    const whole = await start();
    expect(whole.startup).toMatchObject({ restored: 3, read: 0, fault: null });
    expect(whole.faults).toEqual([]);
  });

  it('is written again by its timer after a start could not write it, with no zone changing meanwhile', async () => {
    // A directory that is not there yet: as a full disk or a directory this process may not write to, the write fails.
    const dir = path.join(t.dir, 'later');
    const later = path.join(dir, SNAPSHOT_FILE);
    const faults: SnapshotFaultKind[] = [];
    const sync = await syncZones({
      store: t.services.store,
      events: t.services.events,
      index: new ZoneIndex(),
      identity: IDENTITY,
      reconcileMs: 3_600_000,
      snapshot: later,
      refreshMs: 50,
      hooks: { snapshotFault: (fault) => void faults.push(fault) },
    });
    try {
      await sync.loaded;
      await sync.snapshotWritten;
      expect(sync.startup.read).toBe(3);
      expect(faults[0]).toBe('write_failed');
      fs.mkdirSync(dir);
      await vi.waitFor(() => expect(fs.existsSync(later)).toBe(true), { timeout: 10_000, interval: 50 });
      const reader = SnapshotReader.open(later, await t.services.store.schemaVersion());
      if (typeof reader === 'string') throw new Error(reader);
      reader.close();
    } finally {
      sync.stop();
    }
  });

  it('takes from the file only whole entries of the index, of registered types', async () => {
    const { index } = await start();
    const zone = index.get('two.test')!;
    const multi = Buffer.from(zone.entryOf('multi')!);
    expect(entryShape(multi, 0, multi.length)).toEqual({ hasNs: false });
    const cut = Buffer.from(zone.entryOf('sub')!);
    expect(entryShape(cut, 0, cut.length)).toEqual({ hasNs: true });
    // A DNAME's target the zone keeps as text, which its entry does not hold: its rows are filed instead.
    const old = Buffer.from(zone.entryOf('old')!);
    expect(() => entryShape(old, 0, old.length)).toThrow(/not an entry/);
    expect(zone.entryOf('@')).toBeUndefined();
    expect(index.get('one.test')!.entryOf('flat')).toBeUndefined();
    // Cut short, one octet too long, no sets, a type code no registry has: refused, the zone unchanged.
    expect(() => entryShape(multi, 0, multi.length - 1)).toThrow(/not an entry/);
    expect(() => entryShape(Buffer.concat([multi, Buffer.alloc(1)]), 0, multi.length + 1)).toThrow(/not an entry/);
    expect(() => entryShape(Buffer.from([0, 0]), 0, 2)).toThrow(/not an entry/);
    const unknown = Buffer.from(multi);
    unknown.writeUInt16BE(65280, 2);
    expect(() => entryShape(unknown, 0, unknown.length)).toThrow(/not an entry/);
    const before = dump(zone);
    expect(() => zone.restoreName('multi', unknown, 0, unknown.length)).toThrow(/not an entry/);
    expect(() => zone.restoreName('@', multi, 0, multi.length)).toThrow(/objects/);
    expect(dump(zone)).toEqual(before);
  });

  it('tags a zone anew at every write of its records, by whatever writer, and a new zone at once', async () => {
    const before = await t.services.store.records.contentTags();
    const one = (await t.services.store.domains.byName('one.test'))!;
    const two = (await t.services.store.domains.byName('two.test'))!;
    expect(before.get(one.id)).toMatch(/^[0-9a-f]{24,32}$/);
    const row = (await t.services.store.records.atName(one.id, 'h1'))[0]!;
    await t.forge.records.update(row.id, { ttl: 61 });
    const after = await t.services.store.records.contentTags();
    expect(after.get(one.id)).not.toBe(before.get(one.id));
    // Another zone's tag stays: its snapshot stays good.
    expect(after.get(two.id)).toBe(before.get(two.id));
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'empty.test' } })).status).toBe(201);
    const empty = (await t.services.store.domains.byName('empty.test'))!;
    expect((await t.services.store.records.contentTags()).get(empty.id)).toMatch(/^[0-9a-f]+$/);
    // A zone with nothing to serve is filed too (one.test is read again: its TTL changed above); the next start takes
    // both from the file, and keeps the file as it is.
    expect((await start()).startup).toMatchObject({ restored: 2, read: 2, written: 4 });
    const mtime = fs.statSync(file).mtimeMs;
    expect((await start()).startup).toEqual({ restored: 4, read: 0, fault: null, written: 4 });
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    expect((await t.request('DELETE', '/api/v1/domains/empty.test')).status).toBe(200);
  });
});
