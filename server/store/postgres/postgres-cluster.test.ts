/**
 * What the PostgreSQL store gives several nodes, each "node" here a store of
 * its own on one database: messages published in a transaction reach every listener on commit
 * (in commit order) and never on rollback; a listener whose connection is killed comes back and
 * says so; token buckets and the catalog serial are one for all. Needs TEST_DATABASE_URL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_SECRETS_KEY } from '../../testing/postgres-database';
import { keyFromBase64, SecretBox } from '../secret-box';
import { testDatabaseUrl } from '../../testing/cluster';
import { openPostgresStore } from './postgres';
import type { Feed, Store } from '../types';

let db: { url: string; drop(): Promise<void> };
let a: Store;
let b: Store;
const feeds: Feed[] = [];

async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  db = await createPostgresDatabase(testDatabaseUrl('the PostgreSQL cluster tests'));
  a = await openPostgresStore(db.url, new SecretBox(keyFromBase64(TEST_SECRETS_KEY)));
  b = await openPostgresStore(db.url, new SecretBox(keyFromBase64(TEST_SECRETS_KEY)));
});

afterAll(async () => {
  for (const f of feeds) await f.close();
  await a?.close();
  await b?.close();
  await db?.drop();
});

describe('the feed between nodes (NOTIFY in the transaction, LISTEN per node)', () => {
  it('delivers what a transaction publishes when it commits, in commit order, and nothing of a rollback', async () => {
    const got: string[] = [];
    let connected = 0;
    feeds.push(b.listen!({ message: (p) => got.push(p), connected: () => connected++, disconnected: () => {} }));
    await until(() => connected === 1);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = a.transaction(async (tx) => {
      await tx.publish('first');
      await held;
    });
    await a.transaction(async (tx) => tx.publish('second'));
    await until(() => got.length === 1);
    expect(got).toEqual(['second']);
    release();
    await first;
    await expect(
      a.transaction(async (tx) => {
        await tx.publish('rolled back');
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await a.publish('outside a transaction');
    await until(() => got.length === 3);
    expect(got).toEqual(['second', 'first', 'outside a transaction']);
  });

  it('reconnects after its connection is killed, and says so, so the node can catch up', async () => {
    const got: string[] = [];
    const events: string[] = [];
    feeds.push(a.listen!({ message: (p) => got.push(p), connected: () => events.push('connected'), disconnected: () => events.push('disconnected') }));
    await until(() => events.length === 1);
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN%' and datname = current_database()`);
    await admin.end();
    expect(killed.rowCount).toBe(2);
    await until(() => events.length >= 3);
    expect(events.slice(0, 3)).toEqual(['connected', 'disconnected', 'connected']);
    await b.publish('after the reconnect');
    await until(() => got.includes('after the reconnect'));
  });
});

describe('token buckets shared by every node', () => {
  it('count requests to all nodes in one bucket, and say how long to wait', async () => {
    const rate = { perSecond: 1, burst: 3 };
    const takes = [];
    for (let i = 0; i < 5; i++) takes.push(await (i % 2 ? b : a).sharedBuckets!.take('token:1', rate));
    expect(takes).toEqual([0, 0, 0, 1, 1]);
    expect(await a.sharedBuckets!.take('token:2', rate)).toBe(0);
  });

  it('do not pile up: rows of buckets full again are deleted', async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query(`insert into rate_buckets (key, tokens, at, full_at, allowed) values ('address:192.0.2.1', 0, 0, 1, false)`);
    // A fresh store prunes on its first take.
    const c = await openPostgresStore(db.url, new SecretBox(keyFromBase64(TEST_SECRETS_KEY)));
    await c.sharedBuckets!.take('token:3', { perSecond: 10, burst: 10 });
    await until(async () => (await admin.query(`select 1 from rate_buckets where key = 'address:192.0.2.1'`)).rowCount === 0);
    await c.close();
    await admin.end();
  });

  it("go on after the database's clock steps back an hour: a bucket last taken 'in the future' refills nothing and drains nothing", async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    const inAnHour = `extract(epoch from clock_timestamp()) * 1000 + 3600000`;
    await admin.query(`insert into rate_buckets (key, tokens, at, full_at, allowed) values ('token:4', 2, ${inAnHour}, ${inAnHour}, true)`);
    const rate = { perSecond: 1, burst: 3 };
    expect([await a.sharedBuckets!.take('token:4', rate), await a.sharedBuckets!.take('token:4', rate)]).toEqual([0, 0]);
    await admin.end();
  });
});

describe('the catalog serial', () => {
  it('moves on once per bump, whichever node bumps, even at once', async () => {
    const before = await a.catalog.serial();
    const serials = await Promise.all([a, b, a, b].map((s) => s.transaction((tx) => tx.catalog.bump(new Date()))));
    expect(new Set(serials).size).toBe(4);
    expect(Math.min(...serials)).toBeGreaterThan(before);
    expect(await b.catalog.serial()).toBe(Math.max(...serials));
  });
});
