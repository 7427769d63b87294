/**
 * "Check from outside": what the world sees of a zone. Through RESOLVER: the
 * NS and DS sets resolvers get for the zone, compared with NAMESERVERS and the DS of the
 * zone's keys; then the SOA serial each listed name server gives with authority, asked directly,
 * compared with ours. The delegation is "pending" until the NS sets match (as Cloudflare's pending
 * → active). A recursive resolver answers what resolvers see, which is what matters to users; a
 * full iterative walk to the parent is not made.
 *
 * Every answer is bounded (dns/delegation.ts); a zone's result is kept 30 s, so that page refreshes
 * do not become a flood of queries; "check again" may renew it after 5 s. The names a parent lists
 * are the zone owner's to choose: their servers are asked only at public addresses, so that no
 * user can point this server's questions at the inside of its network (NAMESERVERS are the
 * operator's own, asked wherever they are).
 */
import { isPublicAddress } from '../../core/ip-range';
import { askAddresses, askDs, askNs, askSerial, sameSet } from './dns-questions';
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

export interface DelegationReport {
  checked_at: string;
  /** RESOLVER as configured; null when unset (then nothing is asked). */
  resolver: string | null;
  /** What resolvers get for the zone; null when the resolver gave no usable answer. */
  parent: { ns: string[]; ds: string[] } | null;
  expected: { ns: string[]; ds: string[] };
  ns_match: boolean;
  ds_status: DsStatus;
  nameservers: NameserverCheck[];
}

/** What tests change: the port name servers are asked on (53), and how long a result is kept. */
export interface DelegationTuning {
  nameserverPort?: number;
  keepMs?: number;
  renewAfterMs?: number;
}

export interface DelegationCheckOptions extends DelegationTuning {
  resolver?: string;
  nameservers: string[];
}

/** At most this many name servers are asked (the root has 13; no delegation needs more). */
export const MAX_NAMESERVERS = 13;
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
  const keepMs = options.keepMs ?? 30_000;
  const renewAfterMs = options.renewAfterMs ?? 5_000;
  const resolver = options.resolver ? parseHostPort(options.resolver) : null;
  const kept = new Map<number, Kept>();

  const ours = new Set(options.nameservers.map((n) => n.toLowerCase().replace(/\.$/, '')));

  async function nameserver(name: string, zone: string, serial: number): Promise<NameserverCheck> {
    const addresses = ((resolver && (await askAddresses(resolver, name, timeoutMs))) ?? []).slice(0, MAX_ADDRESSES);
    // One address is asked: IPv4 when there is one (askAddresses lists those first).
    const at = addresses.find((a) => ours.has(name) || isPublicAddress(a));
    const theirs = at ? await askSerial({ host: at, port }, zone, timeoutMs) : null;
    return { name, addresses, serial: theirs, status: serialStatus(theirs, serial) };
  }

  async function run(zone: DomainRow, keys: readonly DnssecPublicKey[]): Promise<DelegationReport> {
    const expected = { ns: options.nameservers, ds: zone.dnssec_enabled ? expectedDs(keys) : [] };
    const base = { checked_at: new Date().toISOString(), resolver: options.resolver ?? null, expected };
    if (!resolver) return { ...base, parent: null, ns_match: false, ds_status: 'unknown', nameservers: [] };
    const [ns, ds] = await Promise.all([askNs(resolver, zone.name, timeoutMs), askDs(resolver, zone.name, timeoutMs)]);
    const parent = ns === null || ds === null ? null : { ns: ns.slice(0, MAX_NAMESERVERS), ds: ds.slice(0, MAX_DS) };
    const nsMatch = parent !== null && parent.ns.length > 0 && sameSet(parent.ns, expected.ns);
    // The servers the world is sent to; while nothing is delegated, ours (are they ready?).
    const listed = parent && parent.ns.length > 0 ? parent.ns : expected.ns.slice(0, MAX_NAMESERVERS);
    const nameservers = await Promise.all(listed.map((n) => nameserver(n, zone.name, zone.serial_number)));
    return { ...base, parent, ns_match: nsMatch, ds_status: dsStatus(parent?.ds ?? null, expected.ds), nameservers };
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
