/**
 * SQLite's disk full, as a client of the API sees it: every write answers 507
 * `insufficient_storage` (never 500) and leaves nothing of itself behind, a write of many records
 * included, a batch across zones and an RFC 2136 update too (failed, not refused); reads go on,
 * and `/readyz` says the disk is full; and once there is space again, writes work, with no restart and the
 * database intact. The full disk is SQLite's own: `pragma max_page_count` on the writer's
 * connection at the file's size (the store's test seam, docs/operations.md) makes every write that
 * needs a page more fail as a full disk does, with SQLITE_FULL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { InsufficientStorage } from '../core/errors';
import { SLOT, STAT_FIELDS } from '../core/query-stats-fields';
import { backgroundFailures } from '../metrics';
import { createStatsRecorder } from '../services/analytics/stats-recorder';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { servicesFor, type Services } from '../services';
import { openSqliteStore } from '../store/sqlite/sqlite';
import type { Store } from '../store/types';

let dir: string;
let store: Store;
let writer: Database.Database;
let services: Services;
let app: ReturnType<typeof buildApp>;
let token: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-full-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_TOKEN: 'off', RATE_LIMIT_ADDRESS: 'off' });
  store = await openSqliteStore(config.sqlitePath, undefined, { onConnection: (raw) => (writer = raw) });
  services = servicesFor(store, config);
  app = buildApp({ services, config, log: createLogger('silent') });
  const { user } = await services.accounts.addUser('dana');
  token = (await services.accounts.createToken(user.id, 'test')).token;
  await services.tsigKeys.create(user.id, { name: 'dana-key', scope: {} });
  expect((await request('POST', '/api/v1/domains', { name: 'full.example' })).status).toBe(201);
  expect((await request('POST', '/api/v1/domains/full.example/records', { name: 'www', record_type: 'A', content: '192.0.2.30' })).status).toBe(200);
});

afterAll(async () => {
  await store?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function request(method: string, url: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return app.request(`http://localhost${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** The disk is full at the file's present size: SQLite may fill its free pages, and no more. */
function fillDisk(): void {
  writer.pragma(`max_page_count = ${writer.pragma('page_count', { simple: true }) as number}`);
}

function freeDisk(): void {
  writer.pragma('max_page_count = 4294967294');
}

/** Many TXT records of one name, enough to need pages the file does not have. */
const bulk = (label: string) => ({
  rrsets: [{ name: label, record_type: 'TXT', ttl: '300', changetype: 'REPLACE', records: Array.from({ length: 400 }, (_, i) => `"${label} ${i} ${'x'.repeat(200)}"`) }],
});

async function zone(): Promise<{ serial: number; records: number }> {
  const z = await request('GET', '/api/v1/domains/full.example');
  expect(z.status).toBe(200);
  const records = await request('GET', '/api/v1/domains/full.example/records?per_page=1');
  expect(records.status).toBe(200);
  return { serial: ((await z.json()) as { serial_number: number }).serial_number, records: Number(records.headers.get('x-total-count')) };
}

describe('SQLite with its disk full', () => {
  it('answers writes 507 insufficient_storage, writes nothing of them, goes on reading, and writes again once there is space', async () => {
    const before = await zone();
    fillDisk();

    // A write of many records: refused whole.
    const big = await request('PATCH', '/api/v1/domains/full.example/rrsets', bulk('big'));
    expect(big.status).toBe(507);
    const body = (await big.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('insufficient_storage');
    expect(body.error.message).toMatch(/disk .* is full/);
    expect(await zone()).toEqual(before);

    // Small writes fill what free pages are left, then are refused too; none answers 500.
    const statuses: number[] = [];
    while (statuses.length < 200 && statuses.at(-1) !== 507) {
      const res = await request('POST', '/api/v1/domains/full.example/records', { name: `small${statuses.length}`, record_type: 'TXT', content: `"${'y'.repeat(200)}"` });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(507);
    expect(statuses.filter((s) => s !== 200 && s !== 507)).toEqual([]);
    // A batch across zones: the disk, not a zone changed since the preview (409).
    const batch = await request('POST', '/api/v1/records/bulk', { content: '192.0.2.30', match: 'exact', action: 'replace', replacement: '192.0.2.40' });
    expect(batch.status).toBe(507);
    // An RFC 2136 update: not refused (REFUSED), but failed, which the DNS answers SERVFAIL for the client to try again.
    const update = services.updates.apply({
      zone: 'full.example',
      prerequisites: [],
      updates: Array.from({ length: 100 }, (_, i) => ({ name: `upd${i}`, type: 'TXT', cls: 'zone' as const, content: 'u'.repeat(200), ttl: 60 })),
      key: 'dana-key',
      address: '192.0.2.53',
    });
    await expect(update).rejects.toBeInstanceOf(InsufficientStorage);

    // Reads go on; /readyz says why writes fail, and stays 200: this node answers what it holds.
    expect((await request('GET', '/api/v1/domains')).status).toBe(200);
    const full = await zone();
    const ready = await request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'degraded', reason: expect.stringMatching(/^the disk under the database is full \(since .*\): writes answer 507/) });

    // Space again: the same write goes through, on the same connection, with no restart.
    freeDisk();
    expect((await request('PATCH', '/api/v1/domains/full.example/rrsets', bulk('big'))).status).toBe(200);
    const after = await zone();
    expect(after.records).toBe(full.records + 400);
    expect(after.serial).toBeGreaterThan(full.serial);
    expect(writer.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(await (await request('GET', '/readyz')).json()).toMatchObject({ status: 'ready' });
  });

  it('keeps the query counts a full disk refused, and stores them once, exactly, when there is space', async () => {
    const errors: unknown[] = [];
    const recorder = createStatsRecorder(store, { node: 'n1', days: 7, metricsPerZone: false, onError: (err) => errors.push(err) });
    const zoneId = (await store.domains.byName('full.example'))!.id;
    const minute = Math.floor(Date.now() / 60_000) * 60 - 120;
    // Enough names that the rows need pages the file does not have.
    const names = (n: number) => Array.from({ length: 3000 }, (_, i) => [`name-${n}-${i}-${'n'.repeat(60)}.full.example`, 1] as [string, number]);
    const batch = (n: number, queries: number) => {
      const counts = Array<number>(STAT_FIELDS.length).fill(0);
      counts[SLOT.queries] = queries;
      return { minute, zones: [{ id: zoneId, name: 'full.example', counts, names: names(n), nxdomain: [] }], unattributed: [] };
    };
    const queries = async () => (await store.queryStats.series(zoneId, 60, minute, minute + 60, 60))[0]?.queries ?? 0;
    const failures = async () => (await backgroundFailures.get()).values.find((v) => v.labels.job === 'analytics-write')?.value ?? 0;
    const failedBefore = await failures();

    fillDisk();
    recorder.record(batch(1, 7));
    await recorder.flushed();
    expect(errors[0]).toBeInstanceOf(InsufficientStorage);
    expect(await failures()).toBeGreaterThan(failedBefore);
    expect(await queries()).toBe(0);
    // A batch that comes while the disk is full waits with the first.
    recorder.record(batch(2, 5));
    await recorder.flushed();
    expect(await queries()).toBe(0);

    freeDisk();
    await recorder.flushed();
    expect(await queries()).toBe(12);
    await recorder.close();
    expect(await queries()).toBe(12);
    expect(writer.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
