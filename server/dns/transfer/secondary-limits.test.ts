/**
 * A primary that sends more than a zone may hold (MAX_RECORDS_PER_ZONE): the transfer is refused
 * whole, the zone keeps answering what it had, and its transfer state says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnotPrimary, primaryZoneFile } from '../../testing/knot-primary';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

let zd: RunningServer;
let knot: KnotPrimary;

beforeAll(async () => {
  zd = await startServer({ MAX_RECORDS_PER_ZONE: '20' });
  knot = await KnotPrimary.start([{ name: 'bounded.test', file: primaryZoneFile('bounded.test', 1) }], zd.dns);
});

afterAll(async () => {
  await knot?.stop(true);
  await zd?.stop();
});

describe('a secondary whose primary grows past MAX_RECORDS_PER_ZONE', () => {
  it('refuses the transfer whole and keeps serving the version it has', async () => {
    expect((await zd.api('POST', '/domains', { name: 'bounded.test', kind: 'secondary', primaries: [knot.address] })).status).toBe(201);
    expect(await eventually(async () => (await zd.dig('+short', 'www.bounded.test', 'A')).trim() === '192.0.2.10', 100, 100)).toBe(true);
    await knot.change(
      'bounded.test',
      Array.from({ length: 30 }, (_, i) => [`h${i}`, '300', 'A', `198.51.100.${i + 1}`]),
    );
    const transfer = async () => ((await (await zd.api('GET', '/domains/bounded.test')).json()) as { transfer: { state: string; error: string | null; serial: number } }).transfer;
    expect(await eventually(async () => (await transfer()).error !== null, 100, 100)).toBe(true);
    const got = await transfer();
    expect(got.state).toBe('failing');
    expect(got.error).toMatch(/MAX_RECORDS_PER_ZONE/);
    expect(got.serial).toBe(1);
    // Nothing of the refused version is served; the version held still is.
    expect((await zd.dig('+short', 'h0.bounded.test', 'A')).trim()).toBe('');
    expect((await zd.dig('+short', 'www.bounded.test', 'A')).trim()).toBe('192.0.2.10');
    expect((await zd.dig('+short', 'bounded.test', 'SOA')).trim()).toMatch(/ 1 3600 600 86400 300$/);
  });
});
