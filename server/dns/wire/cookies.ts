/**
 * DNS Cookies (RFC 7873) with interoperable server cookies (RFC 9018): a server cookie is
 * Version 1 | Reserved | Timestamp | SipHash-2-4(Client Cookie | Version | Reserved | Timestamp |
 * Client IP) under the server secret. A cookie made by any node with the same secret is good on
 * every node (the secret comes from SECRETS_KEY, which every node of a PostgreSQL set shares).
 * Good for an hour (§4.3); a fresh one is sent with every answer. A client that returns a good
 * server cookie has shown it receives our answers at its address, so it is exempt from response
 * rate limiting (rrl.ts): a spoofed source cannot know its victim's cookie.
 */
import crypto from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { siphash24 } from './siphash';

export const COOKIE_OPTION = 10;
/** The OPT option we answer with: code, length, client cookie (8) and server cookie (16). */
export const COOKIE_OPTION_LENGTH = 4 + 8 + 16;
/** RFC 9018 §4.3: older than an hour, or more than five minutes ahead, is not good. */
const MAX_AGE = 3600;
const MAX_AHEAD = 300;

export interface QueryCookie {
  client: Uint8Array;
  /** The server cookie the client sent back, if any. */
  server: Uint8Array | null;
}

export type CookieResult = 'good' | 'new' | 'bad';

/** The client's address as octets (4 for IPv4, IPv4-mapped IPv6 included; 16 otherwise), memoised a little. */
const octetsMemo = new Map<string, Uint8Array>();
export function addressOctets(address: string): Uint8Array {
  let o = octetsMemo.get(address);
  if (o) return o;
  try {
    o = Uint8Array.from(ipaddr.process(address).toByteArray());
  } catch {
    o = new Uint8Array(0);
  }
  if (octetsMemo.size >= 4096) octetsMemo.clear();
  octetsMemo.set(address, o);
  return o;
}

export class CookieJar {
  private readonly input = Buffer.alloc(8 + 8 + 16);
  private readonly hash = Buffer.alloc(8);

  /** `secret`: 16 octets, the same on every node that answers for the same addresses. */
  constructor(
    private readonly secret: Uint8Array,
    private readonly clock: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    if (secret.length !== 16) throw new Error('the cookie secret is 16 octets');
  }

  /** The secret from SECRETS_KEY when set (shared by the nodes), else random for this process. */
  static secretFrom(secretsKey: string | undefined): Uint8Array {
    if (!secretsKey) return crypto.randomBytes(16);
    return crypto.createHmac('sha256', Buffer.from(secretsKey, 'base64')).update('zonedeck dns server cookie v1').digest().subarray(0, 16);
  }

  /** The 16-octet server cookie for this client cookie and address at `time` (RFC 9018 §4.2). */
  make(client: Uint8Array, address: string, time = this.clock()): Buffer {
    const ip = addressOctets(address);
    const input = this.input;
    input.set(client.subarray(0, 8), 0);
    input[8] = 1;
    input[9] = input[10] = input[11] = 0;
    input.writeUInt32BE(time >>> 0, 12);
    input.set(ip, 16);
    siphash24(this.secret, input.subarray(0, 16 + ip.length), this.hash);
    const out = Buffer.alloc(16);
    input.copy(out, 0, 8, 16);
    this.hash.copy(out, 8);
    return out;
  }

  /** Whether the server cookie the client sent was made here for it, and is fresh (§4.3). */
  check(cookie: QueryCookie, address: string): CookieResult {
    const s = cookie.server;
    if (!s) return 'new';
    if (s.length !== 16 || s[0] !== 1) return 'bad';
    const time = ((s[4]! << 24) | (s[5]! << 16) | (s[6]! << 8) | s[7]!) >>> 0;
    // Serial number arithmetic (RFC 1982) on the 32-bit timestamp.
    const age = (this.clock() - time) | 0;
    if (age > MAX_AGE || age < -MAX_AHEAD) return 'bad';
    const expected = this.make(cookie.client, address, time);
    return crypto.timingSafeEqual(expected, s) ? 'good' : 'bad';
  }

  /** The COOKIE option of our answer: the client's cookie and a fresh server cookie. */
  option(cookie: QueryCookie, address: string): Buffer {
    const out = Buffer.alloc(COOKIE_OPTION_LENGTH);
    out.writeUInt16BE(COOKIE_OPTION, 0);
    out.writeUInt16BE(24, 2);
    out.set(cookie.client.subarray(0, 8), 4);
    this.make(cookie.client, address).copy(out, 12);
    return out;
  }
}

/**
 * A response whose last record is our OPT with no options, with `option` added to that OPT.
 * (Every answer this server encodes ends with its OPT when the query had one; a TSIG is added after.)
 */
export function withOption(response: Buffer, option: Buffer): Buffer {
  const out = Buffer.allocUnsafe(response.length + option.length);
  response.copy(out, 0);
  option.copy(out, response.length);
  out.writeUInt16BE(option.length, response.length - 2);
  return out;
}
