/**
 * PUT …/zones/:zone_id/notify on the real server: the secondaries in SECONDARIES get a NOTIFY
 * (RFC 1996) for the zone at its current serial, without any change to the zone. The test
 * plays the secondary: a UDP socket that records each NOTIFY and answers it.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '../../testing/test-server';
import { cli, startServer, type ServerProcess } from '../../testing/server-process';

const OPCODE_NOTIFY = 4;
let server: ServerProcess | undefined;
let secondary: dgram.Socket | undefined;
let token = '';
const notifies: Array<{ zone: string; serial: number }> = [];

const pdns = (method: string, path: string, body?: unknown) =>
  fetch(`${server!.url}/api/v1/servers/localhost${path}`, { method, headers: { 'x-api-key': token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  const port = await freePort();
  secondary = dgram.createSocket('udp4');
  secondary.on('message', (msg, from) => {
    const q = dnsPacket.decode(msg);
    if (((q.flags ?? 0) >> 11) % 16 !== OPCODE_NOTIFY || q.type !== 'query') return;
    const soa = q.answers?.find((a) => a.type === 'SOA') as { data: { serial: number } } | undefined;
    notifies.push({ zone: q.questions![0]!.name, serial: soa?.data.serial ?? -1 });
    // RFC 1996 §4.7: the answer stops the primary's retries.
    secondary!.send(dnsPacket.encode({ type: 'response', id: q.id, flags: (OPCODE_NOTIFY << 11) | dnsPacket.AUTHORITATIVE_ANSWER, questions: q.questions }), from.port, from.address);
  });
  await new Promise<void>((r) => secondary!.bind(port, '127.0.0.1', r));
  server = await startServer({ DNS_PORT: '0', SECONDARIES: `127.0.0.1:${port}` });
  cli(server.dataDir, 'users', 'add', 'ops');
  token = cli(server.dataDir, 'tokens', 'create', 'ops').at(-1)!;
});

afterAll(async () => {
  secondary?.close();
  await server?.stop();
  if (server) fs.rmSync(server.dataDir, { recursive: true, force: true });
});

describe('PUT …/notify', () => {
  it('sends the secondaries a NOTIFY for the zone at its serial, changing nothing', async () => {
    const created = await pdns('POST', '/zones', { name: 'notify.example.', kind: 'Master' });
    expect(created.status).toBe(201);
    const { serial } = (await created.json()) as { serial: number };
    // The creation itself is notified, as every serial change is.
    expect(await eventually(async () => notifies.length > 0)).toBe(true);
    const before = notifies.length;
    // Answered, it is not sent again (the primary retries every 2 s until answered).
    await new Promise((r) => setTimeout(r, 2500));
    expect(notifies.length).toBe(before);

    const res = await pdns('PUT', '/zones/notify.example./notify');
    expect([res.status, await res.json()]).toEqual([200, { result: 'Notification queued' }]);
    expect(await eventually(async () => notifies.length > before)).toBe(true);
    expect(notifies.at(-1)).toEqual({ zone: 'notify.example', serial });
    expect(((await (await pdns('GET', '/zones/notify.example.?rrsets=false')).json()) as { serial: number }).serial).toBe(serial);
  }, 30_000);
});
