/**
 * One zone in memory: its RRsets by owner name and type, the SOA built from the domain row,
 * the delegation points below the apex, and which names exist (including empty
 * non-terminals, RFC 4592 §2.2.2), so the resolver never touches the store.
 * `gen` grows with every change; cached answers tagged with an older `gen` are stale.
 * A signed zone also has a signer (its keys and signature cache) and its DNSKEY RRset at the apex,
 * and proves negative answers by compact denial or, in nsec3 mode, NSEC3 (with NSEC3PARAM at the apex).
 * The RRsets from record rows are kept compactly, in an arena of bytes per zone (zone-names.ts), and read back as RRset objects when a question needs them.
 */
import { WeightedAnswers } from './weighted';
import { APEX, toFqdn } from '../../core/domain-name';
import { readPolicy } from '../../core/dnssec-policy';
import { RECORD_TYPE_BY_NAME } from '../../core/record-types';
import type { DomainRow, ServedRecord } from '../../store/types';
import { CDNSKEY, CDS, cdsRRsets, deleteRRsets } from '../dnssec/cds';
import { deleteSignalEnd } from '../../services/dnssec/key-material';
import { dnskeyRRset, dnskeyTtl, keysVersion, type SigningKey } from '../dnssec/keys';
import { nsec3ParamRRset } from '../dnssec/nsec3';
import { ZoneSigner } from '../dnssec/sign';
import { T, type RRset, type SoaData } from './rrset';
import { entryShape, Node, ZoneNames, type PutInfo } from './zone-names';

export { Node } from './zone-names';

export interface ZoneIdentity {
  /** SOA MNAME (RFC 1035 §3.3.13): the first configured name server. */
  primary: string;
  /** SOA RNAME: the hostmaster mailbox as a domain name. */
  hostmaster: string;
  /** Resolves ALIAS targets and hands the zone their addresses (dns/alias.ts); none: every ALIAS is unavailable. */
  aliases?: AliasWatcher;
}

/** Told whenever the ALIAS at a name is set or changed, and of all of them once for a new zone. */
export interface AliasWatcher {
  watch(zone: Zone, owner?: string): void;
}

/** An ALIAS of the zone (CNAME flattening): A and AAAA at its owner are its target's addresses. */
export interface ZoneAlias {
  readonly target: string;
  /** The ALIAS record's TTL, the most the addresses are served with. */
  readonly ttl: number;
  /** Address types not to be had now (nothing usable yet): answered SERVFAIL. */
  readonly unavailable: Set<number>;
}

/** The apex sets the service makes itself, never from record rows: a reload of the apex keeps them. */
const SERVICE_TYPES = [T.SOA, T.DNSKEY, CDS, CDNSKEY];
const ADDRESS_TYPES = [T.A, T.AAAA];

/** Groups rows at one owner into RRsets; types outside the registry, and ALIAS (not a type on the wire), are skipped. */
function rrsetsOf(fqdn: string, rows: readonly ServedRecord[]): Node {
  const node = new Node();
  for (const row of rows) {
    const type = RECORD_TYPE_BY_NAME.get(row.record_type);
    if (!type || type.synthetic) continue;
    const set = node.get(type.code);
    const data = type.wireData(row.content);
    if (set) {
      set.data.push(data);
      // RFC 2181 §5.2: one TTL per RRset; the services keep them equal, take the least if not.
      set.ttl = Math.min(set.ttl, row.ttl);
    } else node.set(type.code, { name: fqdn, type: type.code, ttl: row.ttl, data: [data] });
  }
  return node;
}

/** How a signed zone proves that names or types do not exist: RFC 9824 compact answers, or RFC 5155 NSEC3. */
export type DenialMode = 'compact' | 'nsec3';

export class Zone {
  readonly name: string;
  readonly id: number;
  domain: DomainRow;
  gen = 0;
  /** The zone's weighted pools: each query gets one member of theirs, by weight (null: none). */
  weighted: WeightedAnswers | null = null;
  private weightedOf: string | null = null;
  /** The names and their RRsets, compactly (zone-names.ts); read like a Map by absolute name. */
  readonly nodes: ZoneNames;
  /** Set while the zone is signed (dnssec_enabled with at least one key). */
  signer: ZoneSigner | null = null;
  /** How negative answers are proved while the zone is signed (`setDenial`). */
  denial: DenialMode = 'compact';
  /** The NSEC3PARAM this zone publishes itself (nsec3 mode, signed), told apart from a secondary's row. */
  private ownParam: RRset | null = null;
  /** Owner names below the apex that hold an NS set: zone cuts (RFC 1034 §4.2.1). */
  readonly cuts = new Set<string>();
  /** Owner names that hold a DNAME, with its target (RFC 6672). */
  readonly dnames = new Map<string, string>();
  /**
   * For each name (relative to the zone) with names holding data below it, how many: with the
   * names themselves, which names exist (empty non-terminals, RFC 4592 §2.2.2).
   */
  private readonly below = new Map<string, number>();
  /** What the last `putRows` stored (one object, reused). */
  private readonly put: PutInfo = { sets: 0, hasNs: false };
  /**
   * The ALIAS records by owner name (a wildcard's included: names it stands for answer its
   * addresses, RFC 4592 §3.3.1). A name holding one exists even while it has no addresses.
   */
  readonly aliases = new Map<string, ZoneAlias>();
  /**
   * A signed secondary's NSEC3 RRsets (and the RRSIGs over them) by hashed owner, relative to the
   * zone: kept apart from `nodes`, so a hashed owner is no name of the zone for ordinary answers
   * (RFC 5155 §7.2.8); dnssec/passthrough.ts reads them for denials.
   */
  readonly nsec3 = new Map<string, Node>();
  /** While the constructor loads the records: the watcher hears of the zone's ALIASes once, at the end. */
  private loading = true;

  /** `capacity`: octets the arena should start with, when the caller knows better than the records given (the start-up snapshot). */
  constructor(
    domain: DomainRow,
    records: readonly ServedRecord[],
    private readonly identity: ZoneIdentity,
    capacity?: number,
  ) {
    this.name = domain.name;
    this.id = domain.id;
    this.domain = domain;
    // About 24 octets a record in the arena for A-shaped data; it grows if that is short.
    this.nodes = new ZoneNames(domain.name, capacity ?? 256 + records.length * 24);
    // Most names hold one row: each name is stored with its first row as it comes, and the few
    // names met again are stored once more at the end with all their rows (in their order).
    const one: ServedRecord[] = [];
    let again: Map<string, ServedRecord[]> | undefined;
    for (const r of records) {
      if (!this.nodes.hasRel(r.name) && (this.nsec3.size === 0 || !this.nsec3.has(r.name))) {
        one[0] = r;
        this.replaceName(r.name, one);
      } else (again ??= new Map()).set(r.name, []);
    }
    if (again) {
      for (const r of records) again.get(r.name)?.push(r);
      for (const [rel, rows] of again) this.replaceName(rel, rows);
    }
    this.setDomain(domain);
    this.loading = false;
    if (this.aliases.size > 0) this.identity.aliases?.watch(this);
  }

  /** The SOA RRset; its TTL is the negative-caching TTL as RFC 2308 §5 asks. */
  get soa(): RRset {
    return this.nodes.at(APEX, this.name)!.get(T.SOA)!;
  }

  /**
   * Until when the zone is answered (ms since 1970): always for a primary zone; for a secondary,
   * until its last refresh plus SOA expire (RFC 1035 §3.3.13), and not at all before its first
   * transfer. Past it the zone answers SERVFAIL.
   */
  servedUntil = Infinity;

  setDomain(domain: DomainRow): void {
    // The weighted pools are read again only when the zone's pools changed (most changes are records).
    if (this.weightedOf !== (domain.pools ?? null)) {
      const weighted = domain.pools ? new WeightedAnswers(domain.name, domain) : null;
      this.weighted = weighted && weighted.size > 0 ? weighted : null;
      this.weightedOf = domain.pools ?? null;
    }
    this.domain = domain;
    this.servedUntil = domain.kind === 'secondary' ? (domain.expires_at ? Date.parse(domain.expires_at) : 0) : Infinity;
    // A secondary serves its primary's SOA as transferred; a primary zone names this service's.
    const data: SoaData = {
      mname: domain.soa_mname ?? this.identity.primary,
      rname: domain.soa_rname ?? this.identity.hostmaster,
      serial: domain.serial_number,
      refresh: domain.refresh_interval,
      retry: domain.retry_interval,
      expire: domain.expire_interval,
      minimum: domain.minimum_ttl,
    };
    let apex = this.nodes.at(APEX, this.name);
    if (!apex) {
      apex = new Node();
      this.nodes.setNode(APEX, apex);
    }
    apex.set(T.SOA, { name: this.name, type: T.SOA, ttl: domain.minimum_ttl, data: [data] });
    if (!this.signer) this.setDeleteSignal(apex);
    else if (apex.get(T.DNSKEY)?.ttl !== dnskeyTtl(domain.minimum_ttl)) this.publishKeys(apex, this.signer.keys);
    // How the zone's policy proves non-existence (a secondary passes its primary's proofs through).
    this.setDenial(domain.kind === 'secondary' ? 'compact' : readPolicy(domain.dnssec_policy).denial);
    this.gen++;
  }

  /**
   * The CDS/CDNSKEY delete form (RFC 8078 §4) on an unsigned zone while it is due (dnssec/cds.ts),
   * kept as the same objects while it stays, so answer and signature caches hold.
   */
  private setDeleteSignal(apex: Node, now = Date.now()): void {
    const end = deleteSignalEnd(this.domain);
    if (end !== null && now < end) {
      if (!apex.has(CDS)) for (const set of deleteRRsets(this.name)) apex.set(set.type, set);
    } else {
      apex.delete(CDS);
      apex.delete(CDNSKEY);
    }
  }

  /**
   * Replaces every record at a relative name with `rows` (all rows now stored there). Plain
   * names go to the arena; the apex and ALIAS owners, whose sets the zone adds to, stay objects.
   */
  replaceName(rel: string, rows: readonly ServedRecord[]): void {
    const names = this.nodes;
    const existed = names.hasRel(rel);
    // The absolute name, made only when needed (most plain names never need it).
    let fqdn: string | undefined;
    let hasAlias = false;
    let hashed = false;
    let dname: ServedRecord | undefined;
    for (const r of rows) {
      if (r.record_type === 'ALIAS') hasAlias = true;
      else if (r.record_type === 'DNAME') dname ??= r;
      else if (r.record_type === 'NSEC3') hashed = true;
    }
    if (hashed || (this.nsec3.size > 0 && this.nsec3.has(rel))) return this.replaceHashed(rel, rows);
    let present: boolean;
    let hasNs: boolean;
    let aliasChanged = false;
    if (rel === APEX || hasAlias || (this.aliases.size > 0 && this.aliases.has((fqdn ??= toFqdn(rel, this.name)))) || !names.putRows(rel, rows, this.put)) {
      fqdn ??= toFqdn(rel, this.name);
      const before = existed ? names.at(rel, fqdn) : undefined;
      const node = rrsetsOf(fqdn, rows);
      if (rel === APEX) {
        // The SOA, DNSKEY, CDS and CDNSKEY sets are the service's own, not rows: they stay. A DNSKEY
        // set while the zone is not signed here is a signed primary's (a secondary's rows).
        for (const t of SERVICE_TYPES) if (before?.has(t) && (t !== T.DNSKEY || this.signer)) node.set(t, before.get(t)!);
        if (this.ownParam && before?.get(T.NSEC3PARAM) === this.ownParam) node.set(T.NSEC3PARAM, this.ownParam);
      }
      aliasChanged = this.replaceAlias(fqdn, rows, before, node);
      present = node.size > 0 || this.aliases.has(fqdn);
      if (present) names.setNode(rel, node);
      else if (existed) names.delete(rel);
      hasNs = node.has(T.NS);
    } else {
      present = this.put.sets > 0;
      hasNs = this.put.hasNs;
    }
    if (present && !existed) this.adjust(rel, 1);
    else if (!present && existed) this.adjust(rel, -1);
    if (rel !== APEX && hasNs) this.cuts.add((fqdn ??= toFqdn(rel, this.name)));
    else if (this.cuts.size > 0) this.cuts.delete((fqdn ??= toFqdn(rel, this.name)));
    if (dname) this.dnames.set((fqdn ??= toFqdn(rel, this.name)), dname.content);
    else if (this.dnames.size > 0) this.dnames.delete((fqdn ??= toFqdn(rel, this.name)));
    this.gen++;
    if (aliasChanged && !this.loading && this.aliases.has((fqdn ??= toFqdn(rel, this.name)))) this.identity.aliases?.watch(this, fqdn);
  }

  /** An NSEC3 owner's rows (its NSEC3 and the RRSIG over it), kept in `nsec3`, out of the zone's names. */
  private replaceHashed(rel: string, rows: readonly ServedRecord[]): void {
    const node = rrsetsOf(toFqdn(rel, this.name), rows);
    if (node.has(T.NSEC3)) this.nsec3.set(rel, node);
    else this.nsec3.delete(rel);
    this.gen++;
  }

  /**
   * The name's entry in the compact index, when it is one (lent: copy it before the next change),
   * for the start-up snapshot; undefined for the apex, an ALIAS owner and names too big for an
   * entry, which `replaceName` keeps as objects, so only their rows can bring them back.
   */
  entryOf(rel: string): Buffer | undefined {
    return rel === APEX ? undefined : this.nodes.entry(rel);
  }

  /** For the start-up snapshot: the length of the name's entry when it may be filed as it is, else -1 (`ZoneNames.fileable`). */
  fileable(rel: string): number {
    return rel === APEX ? -1 : this.nodes.fileable(rel);
  }

  /** Copies the name's entry, `n` octets as `fileable` said, to `to` at `at`. */
  copyEntry(rel: string, to: Buffer, at: number, n: number): void {
    this.nodes.copyEntry(rel, to, at, n);
  }

  /**
   * `replaceName` from an entry `entryOf` gave (the start-up snapshot's): the same name, sets and
   * cut as the rows that made the entry give (an entry holds no DNAME: `entryShape`). Throws, changing nothing, for octets that are
   * not such an entry.
   */
  restoreName(rel: string, src: Buffer, start: number, end: number): void {
    const shape = entryShape(src, start, end);
    if (rel === APEX || (this.aliases.size > 0 && this.aliases.has(toFqdn(rel, this.name)))) throw new Error('a name the zone keeps as objects');
    const existed = this.nodes.hasRel(rel);
    this.nodes.putEntry(rel, src, start, end);
    if (!existed) this.adjust(rel, 1);
    if (shape.hasNs) this.cuts.add(toFqdn(rel, this.name));
    else if (this.cuts.size > 0) this.cuts.delete(toFqdn(rel, this.name));
    if (this.dnames.size > 0) this.dnames.delete(toFqdn(rel, this.name));
    this.gen++;
  }

  /**
   * The ALIAS at a name from its rows: a new or changed target drops the addresses of the old
   * one and asks the watcher for the new one's; the same target keeps its addresses.
   */
  private replaceAlias(fqdn: string, rows: readonly ServedRecord[], before: Node | undefined, node: Node): boolean {
    const row = rows.find((r) => r.record_type === 'ALIAS');
    const current = this.aliases.get(fqdn);
    if (!row) return current !== undefined && this.aliases.delete(fqdn);
    if (current?.target === row.content && current.ttl === row.ttl) {
      for (const t of ADDRESS_TYPES) if (before?.has(t)) node.set(t, before.get(t)!);
      return false;
    }
    this.aliases.set(fqdn, { target: row.content, ttl: row.ttl, unavailable: new Set(ADDRESS_TYPES) });
    return true;
  }

  /**
   * The addresses of the target of the ALIAS at `owner` for one type (A or AAAA), synthesized
   * there: an RRset, `none` when the target has none (NODATA), or `unavailable` when they could
   * not be had (SERVFAIL). A new RRset object is signed afresh; the same one keeps its signature.
   */
  setAliasAddresses(owner: string, type: number, addresses: RRset | 'none' | 'unavailable'): void {
    const alias = this.aliases.get(owner);
    const node = this.nodes.get(owner);
    if (!alias || !node) return;
    const before = node.get(type);
    const same = typeof addresses === 'object' && before?.ttl === addresses.ttl && before.data.join(' ') === addresses.data.join(' ');
    if (addresses === 'unavailable' || addresses === 'none') node.delete(type);
    else if (!same) node.set(type, addresses);
    if (addresses === 'unavailable') alias.unavailable.add(type);
    else alias.unavailable.delete(type);
    if (before !== node.get(type) || addresses === 'unavailable') this.gen++;
  }

  /** Whether a query for `qtype` at `owner` must fail (SERVFAIL): an ALIAS there whose addresses are not to be had. */
  aliasUnavailable(owner: string, qtype: number): boolean {
    return this.aliases.get(owner)?.unavailable.has(qtype) ?? false;
  }

  /**
   * Signs the zone with these keys from now on (publishing them as the apex DNSKEY set and,
   * for the parent, as CDS and CDNSKEY: RFC 7344 §4), or stops signing with none. The same
   * keys again change nothing, so signatures stay cached.
   */
  setKeys(keys: readonly SigningKey[]): void {
    const ids = keysVersion(keys);
    if ((this.signer?.keyIds ?? '') === ids) return;
    const apex = this.nodes.at(APEX, this.name)!;
    // Signed, an RRset stays one object while it is unchanged, so its signature stays cached.
    this.nodes.keepDecoded(keys.length > 0);
    if (keys.length === 0) {
      this.signer = null;
      apex.delete(T.DNSKEY);
      apex.delete(CDS);
      apex.delete(CDNSKEY);
      this.setDeleteSignal(apex);
    } else {
      this.signer = new ZoneSigner(this.name, keys);
      this.publishKeys(apex, keys);
    }
    this.placeNsec3Param(apex);
    this.gen++;
  }

  /** The apex DNSKEY set and the CDS/CDNSKEY sets of these keys, with the TTL the SOA's gives them. */
  private publishKeys(apex: Node, keys: readonly SigningKey[]): void {
    const ttl = dnskeyTtl(this.soa.ttl);
    apex.set(T.DNSKEY, dnskeyRRset(this.name, keys, ttl));
    apex.delete(CDS);
    apex.delete(CDNSKEY);
    for (const set of cdsRRsets(this.name, keys, ttl)) apex.set(set.type, set);
  }

  /**
   * Proves negative answers with compact denial (the default) or NSEC3 from now on; cached answers
   * are dropped (a new `gen`). A signed zone in nsec3 mode publishes NSEC3PARAM at its apex.
   */
  setDenial(mode: DenialMode): void {
    if (mode === this.denial) return;
    this.denial = mode;
    this.placeNsec3Param(this.nodes.at(APEX, this.name)!);
    this.gen++;
  }

  /** NSEC3PARAM at the apex exactly while the zone is signed here in nsec3 mode; a secondary's stays its own. */
  private placeNsec3Param(apex: Node): void {
    if (this.signer && this.denial === 'nsec3') {
      if (!this.ownParam || apex.get(T.NSEC3PARAM) !== this.ownParam) apex.set(T.NSEC3PARAM, (this.ownParam ??= nsec3ParamRRset(this.name)));
    } else if (this.ownParam) {
      if (apex.get(T.NSEC3PARAM) === this.ownParam) apex.delete(T.NSEC3PARAM);
      this.ownParam = null;
    }
  }

  /** How many records the zone holds (the SOA and DNSKEYs included): what an AXFR would send. */
  recordCount(): number {
    let n = this.nodes.recordCount();
    for (const node of this.nsec3.values()) for (const set of node.values()) n += set.data.length;
    return n;
  }

  /** Whether a name exists in the zone: it has data, or a name below it does. */
  exists(fqdn: string): boolean {
    const rel = this.nodes.rel(fqdn);
    return rel !== undefined && (this.nodes.hasRel(rel) || this.below.has(rel));
  }

  /**
   * The highest zone cut at or above `fqdn` (RFC 1034 §4.3.2 step 3b), or undefined.
   * Data below it is glue or occluded, never answered with authority.
   */
  cutAbove(fqdn: string): string | undefined {
    if (this.cuts.size === 0) return undefined;
    let found: string | undefined;
    for (let n = fqdn; n.length > this.name.length; n = n.slice(n.indexOf('.') + 1)) {
      if (this.cuts.has(n)) found = n;
    }
    return found;
  }

  /**
   * The highest owner of a DNAME strictly above `fqdn`, whose redirection applies to it
   * (RFC 6672 §3.2), or undefined.
   */
  dnameAbove(fqdn: string): string | undefined {
    if (this.dnames.size === 0) return undefined;
    let found: string | undefined;
    for (let n = fqdn; n.length > this.name.length;) {
      n = n.slice(n.indexOf('.') + 1);
      if (this.dnames.has(n)) found = n;
    }
    return found;
  }

  /** The longest existing ancestor of a name that does not exist (RFC 4592 §3.3.1). */
  closestEncloser(fqdn: string): string {
    let n = fqdn;
    while (n.length > this.name.length && !this.exists(n)) n = n.slice(n.indexOf('.') + 1);
    return n;
  }

  /** Counts a name (relative) in or out of the names below each of its ancestors, up to the apex. */
  private adjust(rel: string, delta: number): void {
    if (rel === APEX) return;
    for (let n = rel; n !== APEX;) {
      const dot = n.indexOf('.');
      n = dot < 0 ? APEX : n.slice(dot + 1);
      const w = (this.below.get(n) ?? 0) + delta;
      if (w > 0) this.below.set(n, w);
      else this.below.delete(n);
    }
  }
}
