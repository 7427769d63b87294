/**
 * The queue between a UDP thread and the DNS thread: every datagram comes out whole, in order, with
 * its peer, however often the queue wraps around; a full queue refuses a datagram and takes more
 * once read; and a bell slept on wakes when rung.
 */
import { describe, expect, it } from 'vitest';
import { Bell, DatagramRing, type Datagram } from './datagram-ring';

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('DatagramRing', () => {
  it('gives back every datagram whole and in order while it wraps around many times', () => {
    const wrong: string[] = [];
    const same = (a: Datagram | null | undefined, b: Datagram | undefined) => (a ?? undefined) === b || (!!a && !!b && a.port === b.port && a.address === b.address && a.data.equals(b.data));
    for (const seed of [1, 7, 53, 1232]) {
      const next = random(seed);
      const ring = new DatagramRing(4096);
      const waiting: Datagram[] = [];
      let sent = 0;
      for (let step = 0; step < 20_000; step++) {
        if (next() < 0.55) {
          const data = Buffer.alloc(Math.floor(next() * 700), sent & 0xff);
          const address = next() < 0.5 ? `192.0.2.${sent % 256}` : `2001:db8::${(sent % 65536).toString(16)}`;
          const port = Math.floor(next() * 65536);
          if (ring.push(port, address, data)) {
            waiting.push({ port, address, data });
            sent++;
          } else if (waiting.length === 0) wrong.push(`seed ${seed}: an empty queue refused a datagram`);
        } else {
          const got = ring.shift();
          const want = waiting.shift();
          if (!same(got, want)) wrong.push(`seed ${seed}: datagram ${sent - waiting.length - 1} came out as ${JSON.stringify(got)?.slice(0, 80)}`);
        }
      }
      for (let want = waiting.shift(); want; want = waiting.shift()) if (!same(ring.shift(), want)) wrong.push(`seed ${seed}: a datagram left at the end`);
      expect(ring.shift()).toBeNull();
      expect(sent).toBeGreaterThan(1000);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a datagram when full, and takes it again once one is read', () => {
    const ring = new DatagramRing(1024);
    const data = Buffer.alloc(200, 1);
    let held = 0;
    while (ring.push(53, '127.0.0.1', data)) held++;
    expect(held).toBe(4);
    expect(ring.push(53, '127.0.0.1', data)).toBe(false);
    // The room one datagram leaves at the start is not quite enough to go round to: one octet stays free, so a full queue never looks empty.
    expect(ring.shift()?.data.equals(data)).toBe(true);
    expect(ring.push(53, '127.0.0.1', data)).toBe(false);
    expect(ring.shift()?.data.equals(data)).toBe(true);
    expect(ring.push(53, '127.0.0.1', data)).toBe(true);
    // A datagram bigger than the whole queue never fits, and does no harm.
    expect(ring.push(53, '127.0.0.1', Buffer.alloc(2000))).toBe(false);
    for (let i = 0; i < 3; i++) expect(ring.shift()?.port).toBe(53);
    expect(ring.shift()).toBeNull();
  });

  it('reads a queue made in another place from its shared memory', () => {
    const writer = new DatagramRing(1024);
    const reader = new DatagramRing(writer.buffer);
    writer.push(5353, '::1', Buffer.from('question'));
    expect(reader.shift()).toEqual({ port: 5353, address: '::1', data: Buffer.from('question') });
  });
});

describe('Bell', () => {
  it('wakes a sleeper once rung, and does not let it sleep over a ring it missed', async () => {
    const bell = new Bell();
    const seen = bell.rung;
    const sleeping = bell.after(seen);
    expect(sleeping).not.toBeNull();
    new Bell(bell.buffer).ring();
    await sleeping;
    expect(bell.rung).toBe(seen + 1);
    // Rung before the sleeper looked again: it does not sleep.
    expect(bell.after(seen)).toBeNull();
  });
});
