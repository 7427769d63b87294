/**
 * DNS_THREADS: the built server with two UDP threads answers every question the same from each
 * thread's socket (questions from many source ports, which the kernel spreads over the sockets),
 * both threads answer, and a change is answered by every socket as soon as by one. In process, a
 * UDP thread that stops is started again on the same port while the other keeps answering.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import packet from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createLogger } from '../../log';
import { ZoneEvents } from '../../services/changes/events';
import { openStore } from '../../store/open';
import { eventually, freePort, startServer, type RunningServer } from '../../testing/test-server';
import { startDns } from '../server';

/** One question from a socket of its own (a new source port): the answer's octets after the ID, or null after a second. */
function ask(port: number, name: string, type: string, dnssec = false): Promise<Buffer | null> {
  const socket = dgram.createSocket('udp4');
  const query = packet.encode({
    type: 'query',
    id: 7,
    flags: 0,
    questions: [{ type: type as packet.RecordType, name }],
    additionals: dnssec ? [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: packet.DNSSEC_OK, options: [] } as unknown as packet.Answer] : [],
  });
  return new Promise((resolve) => {
    const done = (answer: Buffer | null) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer && answer.subarray(2));
    };
    const timer = setTimeout(() => done(null), 1000);
    socket.once('message', (m) => done(m));
    socket.send(query, port, '127.0.0.1');
  });
}

/** The answers' records (as dig would list them) of one answer. */
const records = (answer: Buffer | null) =>
  answer ? packet.decode(Buffer.concat([Buffer.from([0, 7]), answer])).answers!.map((a) => `${a.name} ${a.type} ${JSON.stringify((a as { data?: unknown }).data)}`) : null;

describe('two UDP threads over one index (the built server)', () => {
  let s: RunningServer;
  beforeAll(async () => {
    // A port given, as in service (every thread binds it at once; port 0 is the in-process test's below).
    s = await startServer({ DNS_THREADS: '2', DNS_PORT: String(await freePort()) });
  }, 30_000);
  afterAll(() => s?.stop());

  it('says how many threads answer, answers every question alike from every socket, and both threads answer', async () => {
    expect(s.logs.find((l) => l.msg === 'listening')).toMatchObject({ dns_threads: 2 });
    expect((await s.api('POST', '/domains', { name: 'threads.test' })).status).toBe(201);
    const rrsets = [
      { name: 'www', record_type: 'A', changetype: 'REPLACE', records: ['192.0.2.1', '192.0.2.2'] },
      { name: '@', record_type: 'MX', changetype: 'REPLACE', records: ['10 mail.threads.test.'] },
      { name: 'mail', record_type: 'AAAA', changetype: 'REPLACE', records: ['2001:db8::25'] },
      { name: '*.w', record_type: 'TXT', changetype: 'REPLACE', records: ['"any"'] },
      { name: 'alias', record_type: 'CNAME', changetype: 'REPLACE', records: ['www.threads.test.'] },
      { name: 'child', record_type: 'NS', changetype: 'REPLACE', records: ['ns.elsewhere.example.'] },
    ];
    expect((await s.api('PATCH', '/domains/threads.test/rrsets', { rrsets })).status).toBe(200);
    expect(await eventually(async () => (await ask(s.dns, 'www.threads.test', 'A')) !== null && records(await ask(s.dns, 'www.threads.test', 'A'))!.length === 2)).toBe(true);

    // A question set drawn at random: names that exist, below a wildcard or a cut, or not at all; several types; with and without DO.
    const names = ['threads.test', 'www.threads.test', 'mail.threads.test', 'x.w.threads.test', 'alias.threads.test', 'a.child.threads.test', 'nope.threads.test', 'other.test'];
    const types = ['A', 'AAAA', 'MX', 'TXT', 'SOA', 'NS', 'CNAME', 'ANY'];
    let seed = 53;
    const pick = <T>(list: T[]) => list[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % list.length]!;
    for (let q = 0; q < 24; q++) {
      const name = pick(names);
      const type = pick(types);
      const dnssec = pick([false, true]);
      const answers = await Promise.all(Array.from({ length: 8 }, () => ask(s.dns, name, type, dnssec)));
      expect(
        answers.every((a) => a !== null),
        `${name} ${type}`,
      ).toBe(true);
      for (const a of answers) expect(a!.equals(answers[0]!), `${name} ${type} DO=${dnssec}`).toBe(true);
    }

    // Both threads took questions (the kernel spreads new source ports over the two sockets).
    const metrics = async () => (await (await fetch(`${s.http}/metrics`)).text()).match(/^zonedeck_dns_udp_thread_datagrams_total\{thread="\d",datagrams="received"\} \d+/gm) ?? [];
    expect(await eventually(async () => (await metrics()).length === 2 && (await metrics()).every((line) => !line.endsWith(' 0')))).toBe(true);
  });

  it('answers a change from every socket as soon as from one', async () => {
    const added = await s.api('PATCH', '/domains/threads.test/rrsets', { rrsets: [{ name: 'new', record_type: 'TXT', changetype: 'REPLACE', records: ['"fresh"'] }] });
    expect(added.status).toBe(200);
    expect(await eventually(async () => records(await ask(s.dns, 'new.threads.test', 'TXT'))?.length === 1, 100, 5)).toBe(true);
    const all = await Promise.all(Array.from({ length: 32 }, () => ask(s.dns, 'new.threads.test', 'TXT')));
    expect(all.map(records)).toEqual(Array(32).fill(['new.threads.test TXT [{"type":"Buffer","data":[102,114,101,115,104]}]']));
  });
});

describe('a UDP thread that stops', () => {
  it('is started again on the same port, and the port answers meanwhile and after', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-threads-'));
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', DNS_HOST: '127.0.0.1', DNS_PORT: '0', DNS_THREADS: '2' });
    const store = await openStore(config);
    const errors: string[] = [];
    const log = createLogger('silent');
    const dns = (await startDns(config, store, new ZoneEvents(), { ...log, warn: (o: { err?: Error }) => void errors.push(String(o.err?.message)) } as typeof log))!;
    try {
      const answered = async () => (await Promise.all(Array.from({ length: 16 }, () => ask(dns.port, 'none.test', 'SOA')))).filter((a) => a !== null).length;
      expect(await answered()).toBe(16);
      await dns.failUdpThread(0);
      expect(errors.some((e) => /DNS UDP thread 1 stopped/.test(e))).toBe(true);
      expect(await answered()).toBe(16);
      expect(dns.udpThreads().map((t) => t.restarts)).toEqual([1, 0]);
      expect(dns.udpThreads().every((t) => t.received > 0)).toBe(true);
    } finally {
      await dns.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
