/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012): the keyed hash RFC 9018 §4.4 names for DNS server
 * cookies, so that every server of an anycast set, whatever its software, makes and checks the
 * same cookies. 64-bit arithmetic in pairs of 32-bit halves: no BigInt on the query path.
 */

/** The state v0..v3 as [lo, hi] pairs. */
const v = new Uint32Array(8);

function add(a: number, b: number): void {
  const lo = (v[a]! + v[b]!) >>> 0;
  v[a + 1] = (v[a + 1]! + v[b + 1]! + (lo < v[a]! ? 1 : 0)) >>> 0;
  v[a] = lo;
}

function rotl(a: number, n: number): void {
  const lo = v[a]!;
  const hi = v[a + 1]!;
  if (n === 32) {
    v[a] = hi;
    v[a + 1] = lo;
  } else if (n < 32) {
    v[a] = ((lo << n) | (hi >>> (32 - n))) >>> 0;
    v[a + 1] = ((hi << n) | (lo >>> (32 - n))) >>> 0;
  } else {
    const m = n - 32;
    v[a] = ((hi << m) | (lo >>> (32 - m))) >>> 0;
    v[a + 1] = ((lo << m) | (hi >>> (32 - m))) >>> 0;
  }
}

function xor(a: number, b: number): void {
  v[a] = (v[a]! ^ v[b]!) >>> 0;
  v[a + 1] = (v[a + 1]! ^ v[b + 1]!) >>> 0;
}

const V0 = 0;
const V1 = 2;
const V2 = 4;
const V3 = 6;

function round(): void {
  add(V0, V1);
  rotl(V1, 13);
  xor(V1, V0);
  rotl(V0, 32);
  add(V2, V3);
  rotl(V3, 16);
  xor(V3, V2);
  add(V0, V3);
  rotl(V3, 21);
  xor(V3, V0);
  add(V2, V1);
  rotl(V1, 17);
  xor(V1, V2);
  rotl(V2, 32);
}

const le32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

function compress(lo: number, hi: number): void {
  v[V3] = (v[V3]! ^ lo) >>> 0;
  v[V3 + 1] = (v[V3 + 1]! ^ hi) >>> 0;
  round();
  round();
  v[V0] = (v[V0]! ^ lo) >>> 0;
  v[V0 + 1] = (v[V0 + 1]! ^ hi) >>> 0;
}

/** SipHash-2-4 of `msg` under a 16-octet key, written into `out` at `at` (8 octets, little-endian as the reference code writes it). */
export function siphash24(key: Uint8Array, msg: Uint8Array, out: Uint8Array, at = 0): void {
  const k0lo = le32(key, 0);
  const k0hi = le32(key, 4);
  const k1lo = le32(key, 8);
  const k1hi = le32(key, 12);
  // "somepseudorandomlygeneratedbytes"
  v[0] = (k0lo ^ 0x70736575) >>> 0;
  v[1] = (k0hi ^ 0x736f6d65) >>> 0;
  v[2] = (k1lo ^ 0x6e646f6d) >>> 0;
  v[3] = (k1hi ^ 0x646f7261) >>> 0;
  v[4] = (k0lo ^ 0x6e657261) >>> 0;
  v[5] = (k0hi ^ 0x6c796765) >>> 0;
  v[6] = (k1lo ^ 0x79746573) >>> 0;
  v[7] = (k1hi ^ 0x74656462) >>> 0;
  const len = msg.length;
  const whole = len - (len % 8);
  for (let i = 0; i < whole; i += 8) compress(le32(msg, i), le32(msg, i + 4));
  // The last block: the remaining octets, and the length's low octet in the top octet.
  let lo = 0;
  let hi = (len & 0xff) << 24;
  for (let i = whole; i < len; i++) {
    const shift = (i - whole) * 8;
    if (shift < 32) lo |= msg[i]! << shift;
    else hi |= msg[i]! << (shift - 32);
  }
  compress(lo >>> 0, hi >>> 0);
  v[V2] = (v[V2]! ^ 0xff) >>> 0;
  round();
  round();
  round();
  round();
  const rlo = (v[0]! ^ v[2]! ^ v[4]! ^ v[6]!) >>> 0;
  const rhi = (v[1]! ^ v[3]! ^ v[5]! ^ v[7]!) >>> 0;
  for (let i = 0; i < 4; i++) {
    out[at + i] = (rlo >>> (8 * i)) & 0xff;
    out[at + 4 + i] = (rhi >>> (8 * i)) & 0xff;
  }
}
