/**
 * "Check from outside": what the world sees of a zone. The parent is asked itself: through
 * RESOLVER, the closest enclosing zone above ours and its name servers; then one of those
 * servers, directly and without recursion, for the NS set it refers resolvers to and the DS set
 * it serves, compared with NAMESERVERS and the DS of the zone's keys; then the SOA serial each
 * listed name server gives with authority, asked directly, compared with ours. The delegation is
 * "pending" until the NS sets match (as Cloudflare's pending → active). A RESOLVER that does not
 * recurse (RA clear, REFUSED, or a referral for an answer) is said to be so, and nothing it says
 * counts: such a check is never "active".
 *
 * Every answer is bounded (dns-questions.ts); a zone's result is kept 30 s, so that page refreshes
 * do not become a flood of queries; "check again" may renew it after 5 s. The names a parent lists,
 * and the parent's own servers, may be the zone owner's to choose (they name the zone, and may hold
 * the zone above it): those servers are asked only at public addresses, or in the networks the
 * operator lists for an internal DNS tree (PARENT_CHECK_NETWORKS), so that no user can point this
 * server's questions at the inside of its network (NAMESERVERS are the operator's own, asked
 * wherever they are).
 */
import { isPublicAddress, parseIpRange, rangeContains } from '../../core/ip-range';
import { askAddresses, askNs, askSerial, sameSet } from './dns-questions';
import { askParentServer, askParentZone } from './parent-questions';
import { parseHostPort } from '../../core/host-port';
import type { DnssecPublicKey, DomainRow } from '../../store/types';
import { DIGEST_SHA256 } from '../dnssec/key-material';

/** How the parent's DS set stands to the zone's keys. */
export const DS_STATUSES = ['unknown', 'unsigned', 'missing', 'match', 'mismatch'] as const;
export type DsStatus = (typeof DS_STATUSES)[number];

/** How a listed name server's SOA serial stands to ours. */
export const SERVER_STATUSES = ['in_sync', 'behind', 'ahead', 'no_answer'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];

export interface NameserverCheck {
  name: string;
  addresses: string[];
  serial: number | null;
  status: ServerStatus;
}

/** How RESOLVER answered: unset, recursing, not recursing (nothing it says counts), or not at all. */
export const RESOLVER_STATUSES = ['unset', 'recursive', 'not_recursive', 'no_answer'] as const;
export type ResolverStatus = (typeof RESOLVER_STATUSES)[number];

export interface DelegationReport {
  checked_at: string;
  /** RESOLVER as configured; null when unset (then nothing is asked). */
  resolver: string | null;
  resolver_status: ResolverStatus;
  /** The closest enclosing zone above ours ("." for the root); null when not found. */
  parent_zone: string | null;
  /** The parent zone's name servers, and the one that answered for it (`name (address)`), or null. */
  parent_servers: string[];
  asked: string | null;
  /** What the parent's server says of the zone; null when no parent server gave a usable answer. */
  parent: { ns: string[]; ds: string[] } | null;
  expected: { ns: string[]; ds: string[] };
  ns_match: boolean;
  ds_status: DsStatus;
  nameservers: NameserverCheck[];
}

/** What tests change: the port name servers and the parent's servers are asked on (53), and how long a result is kept. */
export interface DelegationTuning {
  nameserverPort?: number;
  parentPort?: number;
  keepMs?: number;
  renewAfterMs?: number;
}

export interface DelegationCheckOptions extends DelegationTuning {
  resolver?: string;
  nameservers: string[];
  /** Networks besides public addresses where the parent's and the listed servers may be asked (PARENT_CHECK_NETWORKS). */
  insideNetworks?: readonly string[];
}

/** At most this many name servers are asked (the root has 13; no delegation needs more). */
export const MAX_NAMESERVERS = 13;
/** The parent's servers tried in turn until one answers: a few silent ones must not hold the page long. */
const MAX_PARENT_TRIES = 3;
const MAX_DS = 13;
/** Addresses kept per name server. */
const MAX_ADDRESSES = 4;
/** Zones whose result is kept at once; the oldest goes first. */
const MAX_KEPT = 1000;

/** The DS records the zone's keys call for, as a parent serves them (`12345 13 2 ABCD…`). */
export const expectedDs = (keys: readonly DnssecPublicKey[]): string[] => keys.map((k) => `${k.key_tag} ${k.algorithm} ${DIGEST_SHA256} ${k.ds_digest.toUpperCase()}`);

/**
 * RFC 4035 §5: a validator follows any DS that matches a key signing the DNSKEY set, so one
 * matching DS is enough (a stale second one during a rollover breaks nothing); a DS that matches
 * none of the keys, or any DS at all for an unsigned zone, makes the zone bogus.
 */
export function dsStatus(parentDs: readonly string[] | null, wanted: readonly string[]): DsStatus {
  if (parentDs === null) return 'unknown';
  const want = new Set(wanted.map((d) => d.toUpperCase()));
  if (want.size === 0) return parentDs.length === 0 ? 'unsigned' : 'mismatch';
  if (parentDs.length === 0) return 'missing';
  return parentDs.some((d) => want.has(d.toUpperCase())) ? 'match' : 'mismatch';
}

/** RFC 1982 serial arithmetic: where `theirs` stands to `ours`. */
export function serialStatus(theirs: number | null, ours: number): ServerStatus {
  if (theirs === null) return 'no_answer';
  if (theirs === ours) return 'in_sync';
  const ahead = (theirs > ours && theirs - ours < 2 ** 31) || (theirs < ours && ours - theirs > 2 ** 31);
  return ahead ? 'ahead' : 'behind';
}

interface Kept {
  at: number;
  key: string;
  report: Promise<DelegationReport>;
}

export function createDelegationChecks(options: DelegationCheckOptions) {
  // 2 s for each question: a silent server must not hold the page long.
  const timeoutMs = 2000;
  const port = options.nameserverPort ?? 53;
  const parentPort = options.parentPort ?? 53;
  const keepMs = options.keepMs ?? 30_000;
  const renewAfterMs = options.renewAfterMs ?? 5_000;
  const resolver = options.resolver ? parseHostPort(options.resolver) : null;
  const kept = new Map<number, Kept>();

  const ours = new Set(options.nameservers.map((n) => n.toLowerCase().replace(/\.$/, '')));
  const inside = (options.insideNetworks ?? []).map((n) => parseIpRange(n));
  /** NAMESERVERS are the operator's, asked wherever they are (a parent served here too has them); any other server at a public address or a listed network. */
  const mayAsk = (name: string, address: string) => ours.has(name) || isPublicAddress(address) || inside.some((r) => rangeContains(r, address));
  const addressesOf = async (name: string) => ((resolver && (await askAddresses(resolver, name, timeoutMs))) ?? []).slice(0, MAX_ADDRESSES);

  async function nameserver(name: string, zone: string, serial: number): Promise<NameserverCheck> {
    const addresses = await addressesOf(name);
    // One address is asked: IPv4 when there is one (askAddresses lists those first).
    const at = addresses.find((a) => mayAsk(name, a));
    const theirs = at ? await askSerial({ host: at, port }, zone, timeoutMs) : null;
    return { name, addresses, serial: theirs, status: serialStatus(theirs, serial) };
  }

  /** The parent zone, its servers, and the first of them (at an address it may ask) that answers for our zone. */
  async function askParent(zone: string, parentZone: string) {
    const servers = ((await askNs(resolver!, parentZone, timeoutMs)) ?? []).slice(0, MAX_NAMESERVERS);
    // Their addresses at once (a silent resolver costs 2 s, not 2 s a server); then a few of them in turn.
    const addresses = await Promise.all(servers.map(addressesOf));
    const askable = servers.flatMap((name, i) => {
      const at = addresses[i]!.find((a) => mayAsk(name, a));
      return at ? [{ name, at }] : [];
    });
    for (const { name, at } of askable.slice(0, MAX_PARENT_TRIES)) {
      const answer = await askParentServer({ host: at, port: parentPort }, zone, timeoutMs);
      if (answer) return { servers, asked: `${name} (${at})`, answer: { ns: answer.ns.slice(0, MAX_NAMESERVERS), ds: answer.ds.slice(0, MAX_DS) } };
    }
    return { servers, asked: null, answer: null };
  }

  async function run(zone: DomainRow, keys: readonly DnssecPublicKey[]): Promise<DelegationReport> {
    const expected = { ns: options.nameservers, ds: zone.dnssec_enabled ? expectedDs(keys) : [] };
    const base = { checked_at: new Date().toISOString(), resolver: options.resolver ?? null, expected };
    const ownServers = () => Promise.all(expected.ns.slice(0, MAX_NAMESERVERS).map((n) => nameserver(n, zone.name, zone.serial_number)));
    const unknown = { parent_servers: [], asked: null, parent: null, ns_match: false, ds_status: 'unknown' as const };
    if (!resolver) return { ...base, resolver_status: 'unset', parent_zone: null, ...unknown, nameservers: [] };
    const parentZone = await askParentZone(resolver, zone.name, timeoutMs);
    // A resolver that does not recurse gives no view of the world: nothing is compared, ours are listed unasked.
    if (parentZone === 'not_recursive') return { ...base, resolver_status: 'not_recursive', parent_zone: null, ...unknown, nameservers: await ownServers() };
    if (parentZone === null) return { ...base, resolver_status: 'no_answer', parent_zone: null, ...unknown, nameservers: await ownServers() };
    const { servers, asked, answer: parent } = await askParent(zone.name, parentZone);
    const nsMatch = parent !== null && parent.ns.length > 0 && sameSet(parent.ns, expected.ns);
    // The servers the world is sent to; while nothing is delegated, ours (are they ready?).
    const listed = parent && parent.ns.length > 0 ? parent.ns : expected.ns.slice(0, MAX_NAMESERVERS);
    const nameservers = await Promise.all(listed.map((n) => nameserver(n, zone.name, zone.serial_number)));
    return {
      ...base,
      resolver_status: 'recursive',
      parent_zone: parentZone,
      parent_servers: servers,
      asked,
      parent,
      ns_match: nsMatch,
      ds_status: dsStatus(parent?.ds ?? null, expected.ds),
      nameservers,
    };
  }

  return {
    /**
     * The zone's delegation as seen from outside: kept 30 s per zone (and while its serial and
     * keys stay the same); `renew` asks again when the kept one is older than 5 s.
     */
    check(zone: DomainRow, keys: readonly DnssecPublicKey[], renew = false): Promise<DelegationReport> {
      const now = Date.now();
      const key = `${zone.name} ${zone.serial_number} ${zone.dnssec_enabled} ${expectedDs(keys).join(',')}`;
      const old = kept.get(zone.id);
      if (old && old.key === key && now - old.at < (renew ? renewAfterMs : keepMs)) return old.report;
      const report = run(zone, keys);
      kept.delete(zone.id);
      kept.set(zone.id, { at: now, key, report });
      // A failed run is not kept: the next request asks again.
      report.catch(() => kept.get(zone.id)?.report === report && kept.delete(zone.id));
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
      return report;
    },
  };
}

export type DelegationChecks = ReturnType<typeof createDelegationChecks>;
