/**
 * Questions zonedeck asks other name servers (a resolver, a parent's or a listed name server):
 * one UDP question, its answer bounded before it is believed — at most 4096 octets and 64
 * records, for the question asked, not truncated — else no answer. Used by the delegation check
 * of the DNS server (dns/delegation.ts) and the zone page's check from outside
 * (services/delegation-check.ts).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import packet from 'dns-packet';
import type { HostPort as Secondary } from '../../core/host-port';

export const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** The largest answer parsed: we ask with EDNS(0) for 1232 octets, and anything longer is not believed. */
export const MAX_ANSWER_OCTETS = 4096;
/** More records than any real NS, DS or address set holds: an answer with more is not believed. */
export const MAX_ANSWER_RECORDS = 64;

export type AskedType = 'NS' | 'DS' | 'A' | 'AAAA' | 'SOA';

/** A parsed answer: its RCODE, whether it is authoritative, whether the server recurses (RA), its answer and authority sections. */
export interface Reply {
  rcode: string;
  authoritative: boolean;
  recursionAvailable: boolean;
  answers: packet.Answer[];
  authorities: packet.Answer[];
}

type Decoded = ReturnType<typeof packet.decode> & { rcode?: string; flag_aa?: boolean; flag_tc?: boolean; flag_ra?: boolean };

/**
 * One question over UDP to `server`: with RD to a resolver, without to a name server. Null when
 * nothing usable came back in time: a timeout, a socket error, a truncated, malformed, oversized or
 * overfull message, or one that answers another question.
 */
export async function askServer(server: Secondary, name: string, type: AskedType, opts: { timeoutMs: number; recursion: boolean }): Promise<Reply | null> {
  const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
  const id = Math.floor(Math.random() * 0x10000);
  const query = packet.encode({
    id,
    type: 'query',
    flags: opts.recursion ? packet.RECURSION_DESIRED : 0,
    questions: [{ type, name }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as packet.Answer],
  });
  try {
    return await new Promise<Reply | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), opts.timeoutMs);
      const done = (r: Reply | null) => {
        clearTimeout(timer);
        resolve(r);
      };
      socket.on('error', () => done(null));
      socket.on('message', (msg) => {
        if (msg.length < 12 || msg.readUInt16BE(0) !== id) return; // not the answer to this question: keep waiting
        if (msg.length > MAX_ANSWER_OCTETS) return done(null);
        let reply: Decoded;
        try {
          reply = packet.decode(msg) as Decoded;
        } catch {
          return done(null);
        }
        const q = reply.questions?.[0];
        if (!q || normalize(q.name) !== normalize(name) || q.type !== type || reply.flag_tc) return done(null);
        const answers = reply.answers ?? [];
        const authorities = reply.authorities ?? [];
        if (answers.length > MAX_ANSWER_RECORDS || authorities.length > MAX_ANSWER_RECORDS) return done(null);
        // dns-packet decodes the RCODE, but its types do not declare it.
        done({ rcode: reply.rcode ?? 'NOERROR', authoritative: reply.flag_aa === true, recursionAvailable: reply.flag_ra === true, answers, authorities });
      });
      socket.send(query, server.port, server.host, (err) => {
        if (err) done(null);
      });
    });
  } finally {
    socket.close();
  }
}

/**
 * Whether a reply to a question sent with RD shows that the server does not recurse: RA clear,
 * REFUSED, or a referral (no answer, NS records in the authority section) instead of an answer.
 * Such a server's answers are never taken for what resolvers see.
 */
export const notRecursive = (reply: Reply): boolean =>
  !reply.recursionAvailable || reply.rcode === 'REFUSED' || (reply.rcode === 'NOERROR' && reply.answers.length === 0 && reply.authorities.some((a) => a.type === 'NS'));

/** A resolver's reply, or null when it shows that the resolver does not recurse. */
const recursed = (reply: Reply | null): Reply | null => (reply && !notRecursive(reply) ? reply : null);

/** The records of `type` owned by `name` in a NOERROR answer; [] for NXDOMAIN; null for any other RCODE or no answer. */
function dataOf(reply: Reply | null, name: string, type: AskedType): unknown[] | null {
  if (!reply) return null;
  if (reply.rcode === 'NXDOMAIN') return [];
  if (reply.rcode !== 'NOERROR') return null;
  return reply.answers.filter((a) => a.type === type && normalize(a.name) === normalize(name)).map((a) => (a as { data: unknown }).data);
}

/** The NS set the resolver returns for `zone`, or null when it gave no usable answer (or does not recurse). */
export async function askNs(resolver: Secondary, zone: string, timeoutMs: number): Promise<string[] | null> {
  const data = dataOf(recursed(await askServer(resolver, zone, 'NS', { timeoutMs, recursion: true })), zone, 'NS');
  return data && [...new Set(data.filter((d): d is string => typeof d === 'string').map(normalize))];
}

/** The DS set the resolver returns for `zone` in presentation form (`12345 13 2 ABCD…`), or null when it gave no usable answer. */
export async function askDs(resolver: Secondary, zone: string, timeoutMs: number): Promise<string[] | null> {
  const data = dataOf(recursed(await askServer(resolver, zone, 'DS', { timeoutMs, recursion: true })), zone, 'DS');
  return data && dsTexts(data);
}

/** DS record data in presentation form (`12345 13 2 ABCD…`), each once. */
export function dsTexts(data: unknown[]): string[] {
  const ds = data as Array<{ keyTag: number; algorithm: number; digestType: number; digest: Buffer }>;
  return [...new Set(ds.map((d) => `${d.keyTag} ${d.algorithm} ${d.digestType} ${d.digest.toString('hex').toUpperCase()}`))];
}

/**
 * The DS set and its TTL as the resolver returns them for `zone` (the smallest TTL of the set: what a
 * cache holds it for at most); null when it gave no usable answer (a timeout, SERVFAIL, garbage).
 */
export async function askDsSet(resolver: Secondary, zone: string, timeoutMs: number): Promise<{ ds: string[]; ttl: number } | null> {
  const reply = await askServer(resolver, zone, 'DS', { timeoutMs, recursion: true });
  const data = dataOf(reply, zone, 'DS');
  if (!reply || !data) return null;
  const ttls = reply.answers.filter((a) => a.type === 'DS' && normalize(a.name) === normalize(zone)).map((a) => (a as { ttl?: number }).ttl ?? 0);
  return { ds: dsTexts(data), ttl: ttls.length > 0 ? Math.min(...ttls) : 0 };
}

/** The IPv4 and IPv6 addresses the resolver returns for `name` (IPv4 first); null when neither question got an answer. */
export async function askAddresses(resolver: Secondary, name: string, timeoutMs: number): Promise<string[] | null> {
  const [a, aaaa] = await Promise.all((['A', 'AAAA'] as const).map(async (type) => dataOf(recursed(await askServer(resolver, name, type, { timeoutMs, recursion: true })), name, type)));
  if (!a && !aaaa) return null;
  const valid = (d: unknown): d is string => typeof d === 'string' && net.isIP(d) !== 0;
  return [...new Set([...(a ?? []), ...(aaaa ?? [])].filter(valid))];
}

/** The SOA serial a name server gives with authority for `zone` (asked without recursion), or null. */
export async function askSerial(server: Secondary, zone: string, timeoutMs: number): Promise<number | null> {
  const reply = await askServer(server, zone, 'SOA', { timeoutMs, recursion: false });
  if (!reply?.authoritative) return null;
  const soa = dataOf(reply, zone, 'SOA')?.[0] as { serial?: unknown } | undefined;
  return typeof soa?.serial === 'number' ? soa.serial : null;
}

export function sameSet(a: string[], b: string[]): boolean {
  const x = new Set(a.map(normalize));
  const y = new Set(b.map(normalize));
  return x.size === y.size && [...x].every((n) => y.has(n));
}
