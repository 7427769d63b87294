/**
 * TXT is a list of character-strings on every path (RFC 6763 §6
 * gives the boundaries meaning): arbitrary string lists written through the PowerDNS API and the
 * v1 API read back with the same strings, and a real dig and kdig, a zone-file export and an AXFR
 * see exactly those strings. Against the built server.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteOctets, tokenize, tokenOctets } from '../../core/rdata/presentation';
import { txtChunks } from '../../core/record-types';
import { startServer, type RunningServer } from '../../testing/test-server';

const run = promisify(execFile);
let s: RunningServer;
let token: string;

beforeAll(async () => {
  s = await startServer();
  expect((await s.api('POST', '/domains', { name: 'txt.test' })).status).toBe(201);
  token = ((await (await s.api('POST', '/tokens', { label: 'pdns' })).json()) as { token: string }).token;
});
afterAll(() => s?.stop());

/** The strings of presentation text as dig, kdig and zone files print them. */
const stringsOf = (text: string): string[] => tokenize(text).map((t) => Buffer.from(tokenOctets(t.text)).toString('hex'));
const hex = (list: Uint8Array[]) => list.map((b) => Buffer.from(b).toString('hex'));
const quoted = (list: Uint8Array[]) => list.map((b) => quoteOctets(b, true)).join(' ');

const pdns = (method: string, path: string, body?: unknown) =>
  fetch(`${s.http}/api/v1/servers/localhost/zones/txt.test.${path}`, {
    method,
    headers: { 'X-API-Key': token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function digStrings(tool: 'dig' | 'kdig', name: string): Promise<string[]> {
  const args = tool === 'dig' ? ['@127.0.0.1', '-p', String(s.dns), '+short', '+norec', name, 'TXT'] : ['@127.0.0.1', '-p', String(s.dns), '+short', '+norec', name, 'TXT'];
  const out = (await run(tool, args)).stdout.trim();
  return stringsOf(out);
}

/** 1–4 character-strings of arbitrary octets, each 0–255 long (a few long ones among them). */
const strings = fc
  .array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ minLength: 200, maxLength: 255 })), { minLength: 1, maxLength: 4 })
  .filter((l) => l.reduce((n, b) => n + b.length, 0) <= 4000);

describe('TXT character-strings are kept on every path', () => {
  it('written through the PowerDNS API: read back byte-identical, and served so to dig and kdig', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(strings, async (list) => {
        const name = `p${n++}.txt.test`;
        const content = quoted(list);
        const res = await pdns('PATCH', '', { rrsets: [{ name: `${name}.`, type: 'TXT', ttl: 60, changetype: 'REPLACE', records: [{ content, disabled: false }] }] });
        expect(res.status, await res.clone().text()).toBe(204);
        const zone = (await (await pdns('GET', `?rrset_name=${name}.&rrset_type=TXT`)).json()) as { rrsets: Array<{ records: Array<{ content: string }> }> };
        expect(zone.rrsets[0]!.records[0]!.content).toBe(content);
        expect(await digStrings('dig', name)).toEqual(hex(list));
      }),
      { numRuns: 30 },
    );
    expect(await digStrings('kdig', 'p0.txt.test')).toEqual(await digStrings('dig', 'p0.txt.test'));
  });

  it('written through the v1 API in the quoted form: the same strings in its read-back, the export and an AXFR', async () => {
    const written = new Map<string, Uint8Array[]>();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(strings, async (list) => {
        const name = `v${n++}`;
        const res = await s.api('POST', '/domains/txt.test/records', { name, record_type: 'TXT', content: list.map((b) => quoteOctets(b)).join(' '), ttl: '60' });
        expect(res.status, await res.clone().text()).toBe(200);
        const rec = (await res.json()) as { content: string };
        expect(hex(txtChunks(rec.content))).toEqual(hex(list));
        expect(await digStrings('dig', `${name}.txt.test`)).toEqual(hex(list));
        written.set(name, list);
      }),
      { numRuns: 30 },
    );
    const exported = await (await s.api('GET', '/domains/txt.test/zone')).text();
    const axfr = (await run('dig', ['@127.0.0.1', '-p', String(s.dns), '+nocmd', '+nostats', '+onesoa', 'txt.test', 'AXFR'])).stdout;
    for (const [name, list] of written) {
      const line = exported.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}\t`));
      expect(line, `${name} in the export`).toBeDefined();
      expect(stringsOf(line!.replace(/^\S+\s+[0-9]+\s+(IN\s+)?TXT\s+/, ''))).toEqual(hex(list));
      const rr = axfr.split('\n').find((l) => l.startsWith(`${name}.txt.test.`));
      expect(stringsOf(rr!.replace(/^\S+\s+[0-9]+\s+IN\s+TXT\s+/, ''))).toEqual(hex(list));
    }
  });

  it('plain text is one logical text split at 255, and reads back plain', async () => {
    const text = `v=DKIM1; k=rsa; p=${'A'.repeat(400)}`;
    const res = await s.api('POST', '/domains/txt.test/records', { name: 'dkim', record_type: 'TXT', content: text, ttl: '60' });
    expect(((await res.json()) as { content: string }).content).toBe(text);
    expect((await digStrings('dig', 'dkim.txt.test')).map((h) => Buffer.from(h, 'hex').length)).toEqual([255, text.length - 255]);
    // A DKIM key split by its writer at other places than 255 keeps those places.
    const split = `"v=DKIM1; k=rsa; p=${'B'.repeat(100)}" "${'C'.repeat(300 - 118)}"`;
    const res2 = await s.api('POST', '/domains/txt.test/records', { name: 'dkim2', record_type: 'TXT', content: split, ttl: '60' });
    expect(((await res2.json()) as { content: string }).content).toBe(split);
    expect((await digStrings('dig', 'dkim2.txt.test')).map((h) => Buffer.from(h, 'hex').length)).toEqual([118, 182]);
  });
});
