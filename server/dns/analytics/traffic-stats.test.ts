/**
 * Against the built server: dig traffic of a known shape comes back from the API as
 * exactly those counts (rcodes with NODATA apart, UDP/TCP, DO, query types, top names and top
 * NXDOMAIN names), a name in no hosted zone is counted under no zone, and with METRICS_PER_ZONE
 * the zone's series appear in /metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type RunningServer } from '../../testing/test-server';

let s: RunningServer;
const stats = async () => (await (await s.api('GET', '/domains/traffic.test/stats')).json()) as { totals: Record<string, number> };
const top = async (kind: string) => ((await (await s.api('GET', `/domains/traffic.test/stats/top?kind=${kind}`)).json()) as { names: Array<{ name: string; count: number }> }).names;
const count = (list: Array<{ name: string; count: number }>, name: string) => list.find((e) => e.name === name)?.count ?? 0;

beforeAll(async () => {
  s = await startServer({ STATS_FLUSH_MS: '200', METRICS_PER_ZONE: 'true' });
  expect((await s.api('POST', '/domains', { name: 'traffic.test' })).status).toBe(201);
  expect((await s.api('POST', '/domains/traffic.test/records', { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' })).ok).toBe(true);
  // The zone is served (this query is counted, so what follows is measured from a settled baseline).
  expect(await eventually(async () => (await s.dig('www.traffic.test', 'A', '+short')).trim() === '192.0.2.1')).toBe(true);
}, 30_000);
afterAll(() => s?.stop());

describe('query statistics from real traffic', () => {
  it('the API shows exactly the counts of the traffic sent', async () => {
    let base = (await stats()).totals;
    // Settled: no change over three reads 500 ms apart (seven flush periods), so that a count of
    // the start-up's queries still on its way (a flush late on a loaded machine) is not measured.
    let steady = 0;
    await eventually(async () => {
      await new Promise((r) => setTimeout(r, 500));
      const now = (await stats()).totals;
      steady = now.queries === base.queries ? steady + 1 : 0;
      base = now;
      return steady >= 3;
    });
    const baseNames = await top('names');
    const www = count(baseNames, 'www.traffic.test');

    // One try each, with time to spare: a retried query would be counted twice.
    const once = ['+tries=1', '+time=5'];
    const digs: Array<Promise<string>> = [];
    for (let i = 0; i < 5; i++) digs.push(s.dig('www.traffic.test', 'A', '+norec', ...once));
    for (let i = 0; i < 3; i++) digs.push(s.dig('www.traffic.test', 'A', '+tcp', '+norec', ...once));
    for (let i = 0; i < 2; i++) digs.push(s.dig('nope.traffic.test', 'A', '+norec', ...once));
    for (let i = 0; i < 2; i++) digs.push(s.dig('WWW.traffic.test', 'AAAA', '+dnssec', '+norec', ...once));
    digs.push(s.dig('mail.traffic.test', 'MX', '+norec', ...once));
    digs.push(s.dig('elsewhere.invalid', 'A', '+norec', ...once)); // REFUSED: in no zone, counted under none
    const answers = await Promise.all(digs);
    expect(answers.filter((a) => a.includes('status: NXDOMAIN'))).toHaveLength(3);
    expect(answers.filter((a) => a.includes('status: REFUSED'))).toHaveLength(1);

    await eventually(async () => (await stats()).totals.queries - base.queries >= 13, 150, 100);
    const t = (await stats()).totals;
    const d = (f: string) => t[f]! - base[f]!;
    expect({ queries: d('queries'), noerror: d('noerror'), nxdomain: d('nxdomain'), nodata: d('nodata'), refused: d('refused'), servfail: d('servfail') }).toEqual({
      queries: 13,
      noerror: 8,
      nxdomain: 3,
      nodata: 2,
      refused: 0,
      servfail: 0,
    });
    expect({ udp: d('udp'), tcp: d('tcp'), dnssec_ok: d('dnssec_ok'), truncated: d('truncated') }).toEqual({ udp: 10, tcp: 3, dnssec_ok: 2, truncated: 0 });
    expect({ a: d('qtype_a'), aaaa: d('qtype_aaaa'), mx: d('qtype_mx') }).toEqual({ a: 10, aaaa: 2, mx: 1 });

    const names = await top('names');
    expect(count(names, 'www.traffic.test') - www).toBe(10); // case folded: WWW is www
    expect(count(names, 'nope.traffic.test')).toBe(2);
    expect(count(names, 'mail.traffic.test')).toBe(1);
    expect(await top('nxdomain')).toEqual([
      { name: 'nope.traffic.test', count: 2 },
      { name: 'mail.traffic.test', count: 1 },
    ]);

    const metrics = await (await fetch(`${s.http}/metrics`)).text();
    expect(metrics).toContain('zonedeck_dns_zone_answers_total{zone="traffic.test",rcode="nxdomain"} 3');
    expect(metrics).not.toContain('zone="elsewhere.invalid"');
  });
});
