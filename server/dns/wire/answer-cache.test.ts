/** The answer cache: what makes two questions the same, and how much memory it may hold. */
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { AnswerCache, questionKey } from './answer-cache';
import { ZoneIndex } from '../index/zone-index';

const q = (name: string, opts: { id?: number; edns?: boolean; do?: boolean } = {}) =>
  packet.encode({
    id: opts.id ?? 1,
    type: 'query',
    questions: [{ name, type: 'A' }],
    additionals: opts.edns || opts.do ? [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: opts.do ? packet.DNSSEC_OK : 0, options: [] } as unknown as packet.Answer] : [],
  });

describe('answer cache', () => {
  it('keys questions case-insensitively, apart per transport and EDNS', () => {
    const k = (b: Buffer, tcp = false) => questionKey(b, tcp)!.key;
    expect(k(q('WWW.Example.COM'))).toBe(k(q('www.example.com')));
    expect(k(q('www.example.com'))).not.toBe(k(q('www.example.com'), true));
    expect(k(q('www.example.com'))).not.toBe(k(q('www.example.com', { edns: true })));
    // Signed answers (DO) are not the unsigned ones.
    expect(k(q('www.example.com', { edns: true }))).not.toBe(k(q('www.example.com', { do: true })));
    expect(k(q('www.example.com'))).not.toBe(k(q('www.example.net')));
  });

  it('leaves odd shapes to the full parser', () => {
    const two = packet.encode({
      id: 1,
      type: 'query',
      questions: [
        { name: 'a.example', type: 'A' },
        { name: 'b.example', type: 'A' },
      ],
    });
    expect(questionKey(two, false)).toBeNull();
    expect(questionKey(Buffer.concat([q('www.example.com'), Buffer.from([0])]), false)).toBeNull();
    expect(questionKey(Buffer.alloc(5), false)).toBeNull();
  });

  it('keeps its memory bounded under a flood of distinct names, newest kept', () => {
    const cache = new AnswerCache(new ZoneIndex(), 64 * 1024);
    let last = '';
    for (let i = 0; i < 10_000; i++) {
      const msg = q(`n${i}.example.com`);
      const { key } = questionKey(msg, false)!;
      cache.put(key, Buffer.concat([msg, Buffer.alloc(100)]), null);
      last = key;
    }
    expect(cache.size).toBeLessThan(600);
    const msg = q('n9999.example.com', { id: 77 });
    expect(cache.answer(msg, last, questionKey(msg, false)!.nameEnd)!.readUInt16BE(0)).toBe(77);
  });
});
