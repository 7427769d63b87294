/**
 * POST …/zones: a new zone, and the records the client gives with it: `rrsets` as the
 * zone's first change after its creation, or `zone`, a zone file, within the creation itself
 * (as POST /api/v1/domains does with `zone_file`). `nameservers` must name the service's set
 * (NAMESERVERS, in any order, with or without dots) when given, and an apex NS set is ignored:
 * zonedeck puts NAMESERVERS there (PowerDNS clients send them anyway). `account`,
 * `soa_edit_api` and `catalog` are kept and answered (issue 26). An
 * SOA's timers become the zone's, as in a zone-file import (DESIGN.md §11); its names and
 * serial are zonedeck's. If the records are refused, the zone is removed again: a client
 * gets a zone with all of them or no zone.
 */
import { APEX, normalizeRecordName, normalizeZoneName } from '../core/domain-name';
import { Conflict, Invalid, RuleError } from '../core/errors';
import { SOA_DEFAULTS } from '../core/soa';
import type { Services } from '../services';
import type { WriteOptions } from '../services/change-sets';
import { asFileErrors, fileBuilder } from '../services/zone-files';
import type { ZoneSettings } from '../services/zones';
import { DEFAULT_ZONE_ATTRIBUTES, type DomainRow, type ZoneAttributes } from '../store/types';
import { PdnsError, unprocessable } from './errors';
import { asAbsolute, dotted } from './names';
import { clientError, translate, writeComments, type Translated } from './rrset-changes';
import type { RRsetInput, ZoneInput } from './schemas';
import type { SoaIdentity } from './zone-view';

/** Zone kinds zonedeck can be: a primary. It serves the zone itself and NOTIFYs its secondaries. */
export function checkKind(kind: string | undefined): void {
  if (kind === undefined) return;
  if (!['native', 'master', 'primary'].includes(kind.toLowerCase())) {
    throw unprocessable(`kind '${kind}' is not supported: zonedeck is the primary of its zones (Native or Master); secondary and catalog zones are not`);
  }
}

/** Zone settings PowerDNS has and zonedeck cannot honour: refused rather than ignored. */
export function checkUnsupported(body: { masters?: string[]; nsec3param?: string; presigned?: boolean }): void {
  if (body.masters?.length) throw unprocessable('masters: zonedeck is the primary of its zones; it has no masters');
  if (body.nsec3param) throw unprocessable('nsec3param: zonedeck signs with NSEC and compact denial (RFC 9824), not NSEC3');
  if (body.presigned) throw unprocessable('presigned: zonedeck signs its zones itself');
}

const TIMERS = ['refresh_interval', 'retry_interval', 'expire_interval', 'minimum_ttl'] as const;

/** The timers of SOA content `mname rname serial refresh retry expire minimum`. */
function soaTimers(content: string, at: string): ZoneSettings {
  const f = content.trim().split(/\s+/);
  if (f.length !== 7 || !f.slice(2).every((n) => /^[0-9]{1,10}$/.test(n))) {
    throw unprocessable(`${at}: SOA content must be "mname rname serial refresh retry expire minimum", numbers in seconds`);
  }
  return Object.fromEntries(TIMERS.map((t, i) => [t, Number(f[3 + i])]));
}

/** Splits the client's RRsets: the SOA gives timers, the apex NS set is dropped, the rest are the zone's records. */
export function fromRRsets(list: readonly RRsetInput[], zone: string): { settings: ZoneSettings; rrsets: RRsetInput[]; positions: number[] } {
  let settings: ZoneSettings = {};
  const rrsets: RRsetInput[] = [];
  const positions: number[] = [];
  list.forEach((rs, i) => {
    let name: string | null = null;
    try {
      name = normalizeRecordName(asAbsolute(rs.name), zone);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
    }
    const type = rs.type.trim().toUpperCase();
    if (name === APEX && type === 'SOA') {
      const soa = rs.records?.[0];
      if (soa) settings = soaTimers(soa.content, `rrsets.${i}.records.0`);
      return;
    }
    if (name === APEX && type === 'NS') return;
    // In a new zone every RRset is created, whatever changetype a client put on it.
    rrsets.push({ ...rs, changetype: 'REPLACE' });
    positions.push(i);
  });
  return { settings, rrsets, positions };
}

/** PowerDNS's SOA-EDIT-API and SOA-EDIT values (its docs, "SOA-EDIT-API" and "SOA-EDIT"). */
const SOA_EDIT_API = ['DEFAULT', 'INCREASE', 'EPOCH', 'SOA-EDIT', 'SOA-EDIT-INCREASE', 'INCEPTION-INCREMENT', 'INCEPTION-EPOCH', 'INCREMENT-WEEKS', 'NONE', 'OFF'];

/**
 * The zone's PowerDNS attributes with what the body sets: `soa_edit_api` one of PowerDNS's values
 * (the serial stays zonedeck's: it only ever rises), `catalog` a zone name or empty. Null when the
 * body sets none. 422 naming the field otherwise.
 */
export function attributesOf(body: Partial<Pick<ZoneInput, 'account' | 'soa_edit_api' | 'catalog'>>, current: ZoneAttributes): ZoneAttributes | null {
  if (body.account === undefined && body.soa_edit_api === undefined && body.catalog === undefined) return null;
  const next = { ...current };
  if (body.account !== undefined) next.account = body.account;
  if (body.soa_edit_api !== undefined) {
    const v = body.soa_edit_api.trim().toUpperCase();
    if (v !== '' && !SOA_EDIT_API.includes(v)) throw unprocessable(`soa_edit_api: '${body.soa_edit_api}' is not one of ${SOA_EDIT_API.join(', ')}`);
    next.soa_edit_api = v;
  }
  if (body.catalog !== undefined) {
    try {
      next.catalog = body.catalog.trim() === '' ? '' : dotted(normalizeZoneName(body.catalog));
    } catch (e) {
      if (e instanceof RuleError) throw unprocessable(`catalog: ${e.message}`);
      throw e;
    }
  }
  return next;
}

/** `nameservers` on creation: the service's set, in any order, dots or not; 422 with the expected set otherwise. */
function checkNameservers(given: readonly string[] | undefined, identity: SoaIdentity): void {
  if (!given || given.length === 0) return;
  const norm = (n: string) => n.trim().toLowerCase().replace(/\.$/, '');
  const want = new Set(identity.nameservers.map(norm));
  const got = new Set(given.map(norm));
  if (got.size === want.size && [...got].every((n) => want.has(n))) return;
  throw unprocessable(`nameservers: zonedeck serves every zone from its own name servers (NAMESERVERS): send exactly ${identity.nameservers.map((n) => `"${dotted(n)}"`).join(', ')}, or leave nameservers out`);
}

export async function createZone(services: Services, identity: SoaIdentity, userId: number, body: ZoneInput, opts: WriteOptions): Promise<DomainRow> {
  const { zones, store } = services;
  if (!body.name) throw unprocessable('name: must be given, e.g. "example.org."');
  checkKind(body.kind);
  checkUnsupported(body);
  checkNameservers(body.nameservers, identity);
  const attributes = attributesOf(body, DEFAULT_ZONE_ATTRIBUTES);
  if (body.rrsets?.length && body.zone) throw unprocessable('give either rrsets or zone (a zone file), not both');
  let zoneName: string;
  try {
    zoneName = normalizeZoneName(body.name);
  } catch (e) {
    if (e instanceof RuleError) throw unprocessable(`name: ${e.message}`);
    throw e;
  }
  const given = body.rrsets ? fromRRsets(body.rrsets, zoneName) : null;
  // A zone file's records are part of the zone's first change set, as for POST /api/v1/domains with zone_file.
  let file: ReturnType<typeof fileBuilder> | undefined;
  try {
    file = body.zone === undefined ? undefined : fileBuilder(await services.zoneFiles.read(body.zone, zoneName, given?.settings.minimum_ttl ?? SOA_DEFAULTS.minimum_ttl), 'merge');
  } catch (e) {
    if (e instanceof Invalid) throw unprocessable(`zone: ${Object.entries(e.fields).map(([k, v]) => `${k}: ${v}`).join('; ')}`);
    throw e;
  }

  let zone: DomainRow;
  try {
    zone = await asFileErrors(() => zones.create(userId, { name: zoneName, ...given?.settings, dnssec_enabled: body.dnssec }, opts, file?.build));
  } catch (e) {
    if (e instanceof Conflict) {
      const existing = await store.domains.byName(zoneName);
      throw new PdnsError(409, existing ? `Domain '${dotted(zoneName)}' already exists` : e.message);
    }
    if (e instanceof Invalid) {
      const lines = Object.keys(e.fields).every((k) => k.startsWith('line ')) ? 'zone: ' : '';
      throw unprocessable(lines + Object.entries(e.fields).map(([k, v]) => `${k}: ${v}`).join('; '));
    }
    throw e;
  }
  if (attributes) await store.zoneAttributes.set(zone.id, attributes);
  if (!given?.rrsets.length) return zone;

  try {
    const apexNs = (await store.records.atName(zone.id, APEX)).filter((r) => r.record_type === 'NS');
    const t: Translated = translate(given.rrsets, { zone, apexNs, identity }, (k) => given.positions[k]!);
    const applied = await services.rrsets.patch(userId, zone.name, t.changes, opts).catch((e: unknown) => {
      throw clientError(e, t);
    });
    await writeComments(store, zone, t);
    return applied.zone;
  } catch (e) {
    await zones.remove(userId, zone.name).catch(() => {});
    throw e;
  }
}
