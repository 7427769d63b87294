/** Parallel writes to one zone: no lost update, every serial distinct and increasing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
});
afterEach(() => t.close());

describe('concurrent writes on one zone', () => {
  it('keeps all 50 record creations and SOA updates, each with its own serial', async () => {
    const created = await (await t.request('POST', '/api/v1/domains', { body: { name: 'busy.example' } })).json();
    const serials: number[] = [];
    t.services.events.subscribe((e) => {
      if (e.kind !== 'zone-deleted') serials.push(e.domain.serial_number);
    });
    const writes = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? t.request('POST', '/api/v1/domains/busy.example/records', { body: { name: `h${i}`, record_type: 'A', content: `192.0.2.${i + 1}` } })
        : t.request('PUT', '/api/v1/domains/busy.example', { body: { minimum_ttl: 300 + i } }),
    );
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const records = await (await t.request('GET', '/api/v1/domains/busy.example/records?record_type=A&per_page=500')).json();
    expect(records).toHaveLength(25);
    // Each commit took the next serial: exactly initial+1 … initial+50, none reused or skipped.
    // (Events of concurrent commits may be delivered out of order; consumers keep the highest.)
    expect([...serials].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => created.serial_number + i + 1));
    const zone = await (await t.request('GET', '/api/v1/domains/busy.example')).json();
    expect(zone.serial_number).toBe(created.serial_number + 50);
  });
});
