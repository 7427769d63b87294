/**
 * The parent's side of a delegation, asked of the parent itself: the closest enclosing zone above
 * ours (its SOA, through RESOLVER), then one of that zone's own name servers, without recursion,
 * for our zone's NS set (the referral it gives resolvers: the authority section, RFC 1034 §4.3.2)
 * and DS set (which the parent serves with authority, RFC 4035 §2.4). A resolver that does not
 * recurse is told apart, so that nothing it says passes for what resolvers see.
 */
import packet from 'dns-packet';
import type { HostPort } from '../../core/host-port';
import { askServer, dsTexts, normalize, notRecursive, type Reply } from './dns-questions';

/** Questions asked at most to find the parent zone: zones deeper than this below their parent are not looked for further. */
const MAX_PARENT_STEPS = 8;

/** The names above `zone`, nearest first, the root last (`a.b.test` → `b.test`, `test`, `.`). */
export function ancestors(zone: string): string[] {
  const labels = normalize(zone).split('.');
  return [...labels.slice(1).map((_, i) => labels.slice(i + 1).join('.')), '.'];
}

const owner = (a: packet.Answer) => normalize(a.name);
const isAbove = (name: string, zone: string) => name === '' || normalize(zone).endsWith(`.${name}`);

/**
 * The closest enclosing zone above `zone` as RESOLVER finds it: the first ancestor with an SOA of its
 * own, or the zone a negative answer names in its authority section. 'not_recursive' when the
 * resolver does not recurse; null when it gave no usable answer.
 */
export async function askParentZone(resolver: HostPort, zone: string, timeoutMs: number): Promise<string | 'not_recursive' | null> {
  for (const name of ancestors(zone).slice(0, MAX_PARENT_STEPS)) {
    const reply = await askServer(resolver, name, 'SOA', { timeoutMs, recursion: true });
    if (!reply) return null;
    if (notRecursive(reply)) return 'not_recursive';
    if (reply.rcode !== 'NOERROR' && reply.rcode !== 'NXDOMAIN') return null;
    if (reply.answers.some((a) => a.type === 'SOA' && owner(a) === normalize(name))) return name === '.' ? '.' : normalize(name);
    // NODATA or NXDOMAIN: the SOA in the authority section is the zone the name is in.
    const soa = reply.authorities.find((a) => a.type === 'SOA' && isAbove(owner(a), zone));
    if (soa) return owner(soa) === '' ? '.' : owner(soa);
  }
  return null;
}

/** What a parent's name server says of our zone: its NS set (empty: not delegated) and DS set. */
export interface ParentAnswer {
  ns: string[];
  ds: string[];
}

/** Our zone's NS set as a parent server gives it (a referral, or an authoritative answer); null when it gave none usable. */
function referral(reply: Reply | null, zone: string): string[] | null {
  if (!reply) return null;
  if (reply.rcode === 'NXDOMAIN') return reply.authoritative ? [] : null;
  if (reply.rcode !== 'NOERROR') return null;
  const of = (list: packet.Answer[]) => list.filter((a) => a.type === 'NS' && owner(a) === normalize(zone)).map((a) => normalize(String((a as { data: unknown }).data)));
  const ns = [...of(reply.answers), ...of(reply.authorities)];
  // Sorted: servers rotate the order of a set between answers.
  if (ns.length > 0) return [...new Set(ns)].sort();
  // No delegation: the parent answers with authority that the name holds no NS. Anything else (a referral
  // elsewhere, a lame server) is no answer.
  return reply.authoritative ? [] : null;
}

/** Our zone's DS set as a parent server gives it with authority; null when it gave none usable. */
function dsOf(reply: Reply | null, zone: string): string[] | null {
  if (!reply?.authoritative) return null;
  if (reply.rcode === 'NXDOMAIN') return [];
  if (reply.rcode !== 'NOERROR') return null;
  return dsTexts(reply.answers.filter((a) => a.type === 'DS' && owner(a) === normalize(zone)).map((a) => (a as { data: unknown }).data));
}

/** Asks one of the parent's name servers, without recursion, for our zone's NS and DS sets; null when it gave no usable answer to both. */
export async function askParentServer(server: HostPort, zone: string, timeoutMs: number): Promise<ParentAnswer | null> {
  const [ns, ds] = await Promise.all([
    askServer(server, zone, 'NS', { timeoutMs, recursion: false }).then((r) => referral(r, zone)),
    askServer(server, zone, 'DS', { timeoutMs, recursion: false }).then((r) => dsOf(r, zone)),
  ]);
  return ns === null || ds === null ? null : { ns, ds };
}
