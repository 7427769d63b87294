/**
 * PowerDNS's words for the refusals zonedeck shares with it, each first in the answer a PowerDNS
 * client gets (as its own API suite looks for them), with zonedeck's field and reason after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, ZONES, type PdnsHarness } from '../testing/pdns-harness';
import { contentWords, nameWords } from './powerdns-words';

const ZONE = `${ZONES}/words.example.`;
const rs = (name: string, type: string, changetype: string, contents: string[], ttl?: number) => ({
  name,
  type,
  changetype,
  ...(ttl === undefined ? {} : { ttl }),
  records: contents.map((content) => ({ content, disabled: false })),
});

let h: PdnsHarness;
const patch = (...rrsets: unknown[]) => h.json('PATCH', ZONE, { rrsets });
beforeAll(async () => {
  h = await pdnsHarness();
  expect((await h.json('POST', ZONES, { name: 'words.example.', kind: 'Native' })).status).toBe(201);
});
afterAll(() => h.t.close());

describe('the words alone', () => {
  it('names: PowerDNS’s characters, a leading "*." aside', () => {
    expect(nameWords('test:x.words.example.')).toBe("Name 'test:x.words.example.' contains unsupported characters");
    expect(nameWords('*.a_b-c/26.words.example.')).toBeNull();
    expect(nameWords('a.*.words.example.')).not.toBeNull();
  });

  it('content: empty, or ( ) ; outside quotes', () => {
    expect(contentWords('')).toBe("missing field at the end of record content ''");
    expect(contentWords('(127.0.0.1)')).toBe("Invalid character '(' in record content '(127.0.0.1)'");
    expect(contentWords('"v=DMARC1; p=none"')).toBeNull();
    expect(contentWords('"a\\"(" "b"')).toBeNull();
  });
});

describe('PATCH refusals in PowerDNS’s words', () => {
  it.each([
    [rs('a.words.example.', 'A', 'upsert', ['192.0.2.1'], 60), "RRset a.words.example. IN A: Changetype 'UPSERT' is not a valid value: rrsets.0.changetype: "],
    [rs('a.words.example.', 'A', 'REPLACE', ['(192.0.2.1)'], 60), "Invalid character '(' in record content '(192.0.2.1)'"],
    [rs('a.words.example.', 'A', 'REPLACE', [''], 60), "missing field at the end of record content ''"],
    [rs('words.example.', 'MX', 'REPLACE', ['10 mail@mx.words.example.'], 60), 'RRset words.example. IN MX: non-hostname content mail@mx.words.example.: rrsets.0.records.0: MX: '],
    [rs('elsewhere.example.', 'A', 'REPLACE', ['192.0.2.1'], 60), 'RRset elsewhere.example. IN A: Name is out of zone: rrsets.0.name: '],
    [rs('test:words.example.', 'A', 'REPLACE', ['192.0.2.1'], 60), 'contains unsupported characters'],
    [rs('c.words.example.', 'CNAME', 'REPLACE', ['a.example.', 'b.example.'], 60), 'RRset c.words.example. IN CNAME: only one such record allowed: '],
    [rs('words.example.', 'SOA', 'REPLACE', ['a. b. 1 2 3 4 5', 'c. d. 1 2 3 4 5'], 60), 'IN SOA: only one such record allowed'],
    [rs('sub.words.example.', 'SOA', 'REPLACE', ['a. b. 1 2 3 4 5'], 60), 'IN SOA: is only allowed at apex'],
    [rs('words.example.', 'DS', 'REPLACE', ['44030 8 2 d4c3d5552b8679faeebc317e5f048b614b2e5f607dc57f1553182d49ab2179f7'], 60), 'RRset words.example. IN DS: is not allowed at apex: '],
    [rs('words.example.', 'CNAME', 'REPLACE', ['example.org.'], 60), 'RRset words.example. IN CNAME: Conflicts with pre-existing RRset: '],
    [rs('words.example.', 'OPT', 'REPLACE', ['9'], 60), 'RRset words.example. IN OPT: invalid type given: '],
    [rs('words.example.', 'FAFAFAFA', 'REPLACE', ['9'], 60), 'RRset words.example. IN FAFAFAFA: unknown type given: '],
    [rs('words.example.', 'NS', 'REPLACE', ['ns9.example.', 'ns8.example.', 'ns9.example.'], 60), 'duplicate record with content "ns9.example."'],
    [{ ...rs('words.example.', 'NS', 'REPLACE', []), comments: [{ content: 'x', account: '', modified_at: 4294967297 }] }, "Key 'modified_at' is not a valid number"],
    [rs('a.words.example.', 'A', 'REPLACE', ['192.0.2.1'], -1), "Key 'ttl' is not a positive Integer"],
  ])('%j', async (entry, words) => {
    const res = await patch(entry);
    expect(res.status).toBe(422);
    expect(res.body.error).toContain(words);
  });

  it('beside a CNAME already there, and a DNAME beside a delegation', async () => {
    expect((await patch(rs('sub.words.example.', 'CNAME', 'REPLACE', ['example.org.'], 60), rs('del.words.example.', 'NS', 'REPLACE', ['ns.example.org.'], 60))).status).toBe(204);
    expect((await patch(rs('sub.words.example.', 'A', 'REPLACE', ['192.0.2.1'], 60))).body.error).toMatch(/^RRset sub\.words\.example\. IN A: Conflicts with pre-existing RRset: rrsets\.0/);
    expect((await patch(rs('del.words.example.', 'DNAME', 'REPLACE', ['example.com.'], 60))).body.error).toMatch(/IN DNAME: Cannot have both NS and DNAME except in zone apex: /);
  });

  it('TXT strings that differ only in case are two records, not a duplicate', async () => {
    expect((await patch(rs('case.words.example.', 'TXT', 'REPLACE', ['"Hello"', '"hello"'], 60))).status).toBe(204);
  });

  it('a DELETE of a name outside the zone is no error, as in PowerDNS: there is nothing of it to delete', async () => {
    expect((await patch({ name: 'not-in-zone.', type: 'NS', changetype: 'DELETE' })).status).toBe(204);
  });

  it('an EXTEND with another TTL than the RRset has is refused: one TTL per RRset (RFC 2181 §5.2)', async () => {
    expect((await patch(rs('txt.words.example.', 'TXT', 'EXTEND', ['"hello"'], 3600))).status).toBe(204);
    const other = await patch(rs('txt.words.example.', 'TXT', 'EXTEND', ['"hello again"'], 1234));
    expect(other.body.error).toMatch(/^RRset txt\.words\.example\. IN TXT: uses a different TTL value than the remainder of the RRset: rrsets\.0\.ttl: the records there have TTL 3600/);
    // The same TTL, no TTL, or a REPLACE first in the same PATCH: fine.
    expect((await patch(rs('txt.words.example.', 'TXT', 'EXTEND', ['"again"'], 3600), rs('txt.words.example.', 'TXT', 'EXTEND', ['"more"']))).status).toBe(204);
    expect((await patch(rs('txt.words.example.', 'TXT', 'REPLACE', ['"new"'], 60), rs('txt.words.example.', 'TXT', 'EXTEND', ['"newer"'], 60))).status).toBe(204);
  });
});

describe('PUT and POST refusals in PowerDNS’s words', () => {
  it('a whole zone replaced with a CNAME at the apex conflicts with the NS set there', async () => {
    const soa = rs('words.example.', 'SOA', 'REPLACE', ['ns1.zonedeck.test. hostmaster.zonedeck.test. 1 10800 3600 1209600 3600'], 3600);
    const res = await h.json('PUT', ZONE, { rrsets: [soa, rs('words.example.', 'CNAME', 'REPLACE', ['example.org.'], 3600)] });
    expect(res.status).toBe(422);
    expect(res.body.error).toContain('RRset words.example. IN CNAME: conflicts with existing NS RRset of the same name: ');
  });

  it('a zone file with a name outside the zone names its RRset', async () => {
    const zone = 'file.example. 3600 IN SOA ns1.example. h.example. 1 10800 3600 604800 3600\nexample.org. 3600 IN AAAA 2001:db8::2\n';
    const res = await h.json('POST', ZONES, { name: 'file.example.', kind: 'Native', zone });
    expect(res.status).toBe(422);
    expect(res.body.error).toContain('RRset example.org. IN AAAA: Name is out of zone: line 2: ');
  });
});
