/**
 * One zone in memory: its RRsets by owner name and type, the SOA built from the domain row,
 * the delegation points below the apex, and which names exist (including empty
 * non-terminals, RFC 4592 §2.2.2), so the resolver never touches the store.
 * `gen` grows with every change; cached answers tagged with an older `gen` are stale.
 * A signed zone also has a signer (its keys and signature cache) and its DNSKEY RRset at the apex.
 */
import { APEX, toFqdn } from '../core/domain-name';
import { RECORD_TYPE_BY_NAME } from '../core/record-types';
import type { DomainRow, RecordRow } from '../store/types';
import { dnskeyRRset, type SigningKey } from './dnssec/keys';
import { ZoneSigner } from './dnssec/sign';
import { T, type RRset, type SoaData } from './rrset';

export interface ZoneIdentity {
  /** SOA MNAME (RFC 1035 §3.3.13): the first configured name server. */
  primary: string;
  /** SOA RNAME: the hostmaster mailbox as a domain name. */
  hostmaster: string;
}

export type Node = Map<number, RRset>;

/** Groups rows at one owner into RRsets; types outside the registry are skipped. */
function rrsetsOf(fqdn: string, rows: readonly RecordRow[]): Node {
  const node: Node = new Map();
  for (const row of rows) {
    const type = RECORD_TYPE_BY_NAME.get(row.record_type);
    if (!type) continue;
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

export class Zone {
  readonly name: string;
  readonly id: number;
  domain: DomainRow;
  gen = 0;
  readonly nodes = new Map<string, Node>();
  /** Set while the zone is signed (dnssec_enabled with at least one key). */
  signer: ZoneSigner | null = null;
  /** Owner names below the apex that hold an NS set: zone cuts (RFC 1034 §4.2.1). */
  readonly cuts = new Set<string>();
  /** Owner names that hold a DNAME, with its target (RFC 6672). */
  readonly dnames = new Map<string, string>();
  /** For each existing name, how many names with data lie at or below it. */
  private readonly weight = new Map<string, number>();

  constructor(domain: DomainRow, records: readonly RecordRow[], private readonly identity: ZoneIdentity) {
    this.name = domain.name;
    this.id = domain.id;
    this.domain = domain;
    const byName = new Map<string, RecordRow[]>();
    for (const r of records) {
      const list = byName.get(r.name);
      if (list) list.push(r);
      else byName.set(r.name, [r]);
    }
    for (const [rel, rows] of byName) this.replaceName(rel, rows);
    this.setDomain(domain);
  }

  /** The SOA RRset; its TTL is the negative-caching TTL as RFC 2308 §5 asks. */
  get soa(): RRset {
    return this.nodes.get(this.name)!.get(T.SOA)!;
  }

  setDomain(domain: DomainRow): void {
    this.domain = domain;
    const data: SoaData = {
      mname: this.identity.primary,
      rname: this.identity.hostmaster,
      serial: domain.serial_number,
      refresh: domain.refresh_interval,
      retry: domain.retry_interval,
      expire: domain.expire_interval,
      minimum: domain.minimum_ttl,
    };
    let apex = this.nodes.get(this.name);
    if (!apex) {
      apex = new Map();
      this.nodes.set(this.name, apex);
      this.adjust(this.name, 1);
    }
    apex.set(T.SOA, { name: this.name, type: T.SOA, ttl: domain.minimum_ttl, data: [data] });
    this.gen++;
  }

  /** Replaces every record at a relative name with `rows` (all rows now stored there). */
  replaceName(rel: string, rows: readonly RecordRow[]): void {
    const fqdn = toFqdn(rel, this.name);
    const before = this.nodes.get(fqdn);
    const node = rrsetsOf(fqdn, rows);
    // The SOA and DNSKEY sets are the service's own, not rows: they stay.
    if (rel === APEX && before?.has(T.SOA)) node.set(T.SOA, before.get(T.SOA)!);
    if (rel === APEX && before?.has(T.DNSKEY)) node.set(T.DNSKEY, before.get(T.DNSKEY)!);
    if (node.size > 0) {
      this.nodes.set(fqdn, node);
      if (!before) this.adjust(fqdn, 1);
    } else if (before) {
      this.nodes.delete(fqdn);
      this.adjust(fqdn, -1);
    }
    if (rel !== APEX && node.has(T.NS)) this.cuts.add(fqdn);
    else this.cuts.delete(fqdn);
    const dname = rows.find((r) => r.record_type === 'DNAME');
    if (dname) this.dnames.set(fqdn, dname.content);
    else this.dnames.delete(fqdn);
    this.gen++;
  }

  /**
   * Signs the zone with these keys from now on (publishing them as the apex DNSKEY set), or
   * stops signing with none. The same keys again change nothing, so signatures stay cached.
   */
  setKeys(keys: readonly SigningKey[]): void {
    const ids = keys.map((k) => k.id).join(',');
    if ((this.signer?.keyIds ?? '') === ids) return;
    const apex = this.nodes.get(this.name)!;
    if (keys.length === 0) {
      this.signer = null;
      apex.delete(T.DNSKEY);
    } else {
      this.signer = new ZoneSigner(this.name, keys);
      apex.set(T.DNSKEY, dnskeyRRset(this.name, keys));
    }
    this.gen++;
  }

  /** How many records the zone holds (the SOA and DNSKEYs included): what an AXFR would send. */
  recordCount(): number {
    let n = 0;
    for (const node of this.nodes.values()) for (const set of node.values()) n += set.data.length;
    return n;
  }

  /** Whether a name exists in the zone: it has data, or a name below it does. */
  exists(fqdn: string): boolean {
    return this.weight.has(fqdn);
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
    for (let n = fqdn; n.length > this.name.length; ) {
      n = n.slice(n.indexOf('.') + 1);
      if (this.dnames.has(n)) found = n;
    }
    return found;
  }

  /** The longest existing ancestor of a name that does not exist (RFC 4592 §3.3.1). */
  closestEncloser(fqdn: string): string {
    let n = fqdn;
    while (n.length > this.name.length && !this.weight.has(n)) n = n.slice(n.indexOf('.') + 1);
    return n;
  }

  private adjust(fqdn: string, delta: number): void {
    for (let n = fqdn; ; n = n.slice(n.indexOf('.') + 1)) {
      const w = (this.weight.get(n) ?? 0) + delta;
      if (w > 0) this.weight.set(n, w);
      else this.weight.delete(n);
      if (n.length <= this.name.length) break;
    }
  }
}
