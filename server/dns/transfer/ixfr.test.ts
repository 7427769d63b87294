/**
 * IXFR (RFC 1995) from the zone history, asked for with real dig: the deltas since the
 * client's serial in the §4 layout, the SOA alone for a current client, and the whole zone
 * (AXFR form) when the history does not reach the client's serial.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../testing/test-server';

let zd: RunningServer;
const serial = async () => ((await (await zd.api('GET', '/domains/ixfr.example')).json()) as { serial_number: number }).serial_number;

/** dig's answer lines as "name type data", without TTLs. */
async function ixfr(from: number): Promise<string[]> {
  const out = await zd.dig('+tcp', '+nocmd', '+nostats', '+nocomments', '+noquestion', `IXFR=${from}`, 'ixfr.example');
  return out
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith(';'))
    .map((l) => {
      const [name, , , type, ...data] = l.split(/\s+/);
      return `${name} ${type} ${type === 'SOA' ? data[2] : data.join(' ')}`;
    });
}

beforeAll(async () => {
  zd = await startServer();
  expect((await zd.api('POST', '/domains', { name: 'ixfr.example' })).status).toBe(201);
  expect((await zd.api('POST', '/domains/ixfr.example/records', { name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '300' })).status).toBe(200);
});
afterAll(() => zd?.stop());

describe('IXFR', () => {
  it('answers the differences since the client serial, change set by change set (RFC 1995 §4)', async () => {
    const s0 = await serial();
    const patch = await zd.api('PATCH', '/domains/ixfr.example/rrsets', {
      rrsets: [
        { name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.2'] },
        { name: 'mail', record_type: 'MX', changetype: 'ADD', records: ['10 mx.example.net'] },
      ],
    });
    expect(patch.status).toBe(200);
    const s1 = await serial();
    // An SOA timer alone (minimum_ttl would move the apex NS set's TTL too: more deltas than this small zone holds).
    expect((await zd.api('PUT', '/domains/ixfr.example', { refresh_interval: 7200 })).status).toBe(200);
    const s2 = await serial();
    expect(await ixfr(s0)).toEqual([
      `ixfr.example. SOA ${s2}`,
      `ixfr.example. SOA ${s0}`,
      'www.ixfr.example. A 192.0.2.1',
      `ixfr.example. SOA ${s1}`,
      'www.ixfr.example. A 192.0.2.2',
      'mail.ixfr.example. MX 10 mx.example.net.',
      `ixfr.example. SOA ${s1}`,
      `ixfr.example. SOA ${s2}`,
      `ixfr.example. SOA ${s2}`,
    ]);
    // The SOA of each version carries that version's timers: the refresh before the change was 10800.
    const full = await zd.dig('+tcp', '+short', `IXFR=${s1}`, 'ixfr.example');
    expect(
      full
        .trim()
        .split('\n')
        .map((l) => l.split(' ')[3]),
    ).toEqual(['7200', '10800', '7200', '7200']);
  });

  it('answers the SOA alone to a client that is current', async () => {
    expect(await ixfr(await serial())).toEqual([`ixfr.example. SOA ${await serial()}`]);
  });

  it('answers the whole zone when the history does not reach the client serial', async () => {
    const lines = await ixfr(1);
    const s = await serial();
    expect(lines[0]).toBe(`ixfr.example. SOA ${s}`);
    expect(lines.at(-1)).toBe(`ixfr.example. SOA ${s}`);
    expect(lines).toEqual(expect.arrayContaining(['ixfr.example. NS ns1.zonedeck.test.', 'www.ixfr.example. A 192.0.2.2', 'mail.ixfr.example. MX 10 mx.example.net.']));
    expect(lines.filter((l) => l.includes(' SOA '))).toHaveLength(2);
  });
});
