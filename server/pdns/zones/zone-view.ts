/**
 * A zonedeck zone as PowerDNS shows a zone (its `Zone` and `RRSet` objects, pdns/ws-auth.cc
 * `getZoneInfo` and `fillZone`): the id and URL, `serial` and `edited_serial` (both
 * zonedeck's serial), and the RRsets with the SOA built from the zone's fields, the apex NS
 * set and every record, names absolute and content as master-file rdata.
 */
import { poolAt, readPools } from '../../core/pools';
import { APEX } from '../../core/domain-name';
import { DEFAULT_ZONE_ATTRIBUTES, type DomainRow, type RecordRow, type RRsetComment, type ZoneAttributes } from '../../store/types';
import { contentToPdns } from '../content';
import { absoluteName, dotted, zoneId, zoneUrl } from '../names';

/** Where the SOA's MNAME and RNAME come from (NAMESERVERS, HOSTMASTER). */
export interface SoaIdentity {
  primary: string;
  hostmaster: string;
  /** NAMESERVERS: the apex NS set of every zone. */
  nameservers: readonly string[];
}

export interface PdnsRecord {
  content: string;
  disabled: boolean;
}

export interface PdnsRRset {
  name: string;
  type: string;
  ttl: number;
  records: PdnsRecord[];
  comments: Array<{ content: string; account: string; modified_at: number }>;
}

/** The fields of a zone in a list (PowerDNS lists zones without their RRsets). */
export function zoneSummary(zone: DomainRow, attributes: ZoneAttributes = DEFAULT_ZONE_ATTRIBUTES, withDnssec = true) {
  return {
    id: zoneId(zone.name),
    name: dotted(zone.name),
    type: 'Zone',
    url: zoneUrl(zone.name),
    kind: zone.kind === 'secondary' ? 'Slave' : 'Native',
    serial: zone.serial_number,
    ...(withDnssec ? { edited_serial: zone.serial_number } : {}),
    notified_serial: zone.serial_number,
    masters: zone.primaries ?? [],
    ...(withDnssec ? { dnssec: zone.dnssec_enabled } : {}),
    account: attributes.account,
    catalog: attributes.catalog,
    last_check: 0,
  };
}

/** The SOA's content as PowerDNS prints it (RFC 1035 §3.3.13 field order). */
export function soaContent(zone: DomainRow, id: SoaIdentity): string {
  return `${dotted(zone.soa_mname ?? id.primary)} ${dotted(zone.soa_rname ?? id.hostmaster)} ${zone.serial_number} ${zone.refresh_interval} ${zone.retry_interval} ${zone.expire_interval} ${zone.minimum_ttl}`;
}

/** Sort key of a relative name in canonical order (RFC 4034 §6.1): the apex first, then by labels right to left. */
const nameKey = (name: string) => (name === APEX ? '' : `\u0001${name.split('.').reverse().join('\u0000')}`);
const TYPE_RANK: Record<string, number> = { SOA: 0, NS: 1 };

/** The zone's RRsets: the SOA, then every stored RRset (the apex NS set among them). */
export function zoneRRsets(zone: DomainRow, records: readonly RecordRow[], id: SoaIdentity, comments: readonly RRsetComment[] = []): PdnsRRset[] {
  const sets = new Map<string, { name: string; type: string; rows: RecordRow[]; comments: RRsetComment[] }>();
  for (const r of records) {
    const key = `${r.name}\u0000${r.record_type}`;
    const set = sets.get(key);
    if (set) set.rows.push(r);
    else sets.set(key, { name: r.name, type: r.record_type, rows: [r], comments: [] });
  }
  // An RRset with comments and no records is listed too, as PowerDNS lists it; the SOA's are the built SOA's.
  const soaNotes = comments.filter((c) => c.name === APEX && c.record_type === 'SOA');
  for (const c of comments) {
    if (soaNotes.includes(c)) continue;
    const key = `${c.name}\u0000${c.record_type}`;
    const set = sets.get(key) ?? sets.set(key, { name: c.name, type: c.record_type, rows: [], comments: [] }).get(key)!;
    set.comments.push(c);
  }
  const ordered = [...sets.values()].sort(
    (a, b) =>
      (nameKey(a.name) < nameKey(b.name) ? -1 : nameKey(a.name) > nameKey(b.name) ? 1 : 0) || (TYPE_RANK[a.type] ?? 2) - (TYPE_RANK[b.type] ?? 2) || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
  );
  const soa: PdnsRRset = {
    name: dotted(zone.name),
    type: 'SOA',
    ttl: zone.minimum_ttl,
    records: [{ content: soaContent(zone, id), disabled: false }],
    comments: soaNotes.map(({ content, account, modified_at }) => ({ content, account, modified_at })),
  };
  // A health-checked pool's set says so, as a comment of zonedeck's (a PowerDNS client reads it; writes to the set are refused).
  const pools = readPools(zone.pools);
  const since = Math.floor(Date.parse(zone.updated_at) / 1000) || 0;
  const poolNote = (name: string, type: string) => {
    const p = poolAt(pools, name, type);
    return p ? [{ content: `health-checked pool (${p.policy}) of ${p.members.map((m) => m.address).join(', ')}: zonedeck answers its healthy members`, account: 'zonedeck', modified_at: since }] : [];
  };
  return [
    soa,
    ...ordered.map(({ name, type, rows, comments: notes }) => ({
      name: absoluteName(name, zone.name),
      type,
      // RFC 2181 §5.2: one TTL per RRset; the services keep them equal, take the least if not.
      ttl: rows.length > 0 ? Math.min(...rows.map((r) => r.ttl)) : 0,
      // In order of content, as PowerDNS lists an RRset's records (pdns/ws-auth.cc `fillZone`).
      records: rows.map((r) => ({ content: contentToPdns(type, r.content), disabled: r.disabled === 1 })).sort((a, b) => (a.content < b.content ? -1 : a.content > b.content ? 1 : 0)),
      comments: [...poolNote(name, type), ...notes.map(({ content, account, modified_at }) => ({ content, account, modified_at }))],
    })),
  ];
}

/** The whole zone object of GET …/zones/:zone_id; `rrsets` left out when not asked for. */
export function zoneDetail(zone: DomainRow, rrsets: PdnsRRset[] | undefined, attributes: ZoneAttributes = DEFAULT_ZONE_ATTRIBUTES) {
  return {
    ...zoneSummary(zone, attributes),
    nsec3param: '',
    nsec3narrow: false,
    presigned: false,
    soa_edit: '',
    soa_edit_api: attributes.soa_edit_api,
    api_rectify: false,
    nameservers: [] as string[],
    master_tsig_key_ids: [] as string[],
    slave_tsig_key_ids: [] as string[],
    ...(rrsets ? { rrsets } : {}),
  };
}
