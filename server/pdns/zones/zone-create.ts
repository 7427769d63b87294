/**
 * POST …/zones: a new zone, and the records the client gives with it: `rrsets` as the
 * zone's first change after its creation, or `zone`, a zone file, within the creation itself
 * (as POST /api/v1/domains does with `zone_file`). `nameservers` must name the service's set
 * (NAMESERVERS, in any order, with or without dots) when given, and an apex NS set is ignored:
 * zonedeck puts NAMESERVERS there (PowerDNS clients send them anyway). `account`,
 * `soa_edit_api` and `catalog` are kept and answered. An
 * SOA's timers become the zone's, as in a zone-file import; its names and
 * serial are zonedeck's. If the records are refused, the zone is removed again: a client
 * gets a zone with all of them or no zone.
 */
import { APEX, normalizeRecordName, normalizeZoneName } from '../../core/domain-name';
import { Conflict, Invalid, RuleError } from '../../core/errors';
import { SOA_DEFAULTS } from '../../core/soa';
import type { Services } from '../../services';
import type { WriteOptions } from '../../services/changes/change-sets';
import { asFileErrors, fileBuilder } from '../../services/zones/zone-files';
import type { ZoneSettings } from '../../services/zones/zones';
import { DEFAULT_ZONE_ATTRIBUTES, type DomainRow, type ZoneAttributes } from '../../store/types';
import { PdnsError, unprocessable } from '../errors';
import { zoneFileWords } from '../powerdns-words';
import { asAbsolute, dotted } from '../names';
import { clientError, translate, writeComments, type CommentChange, type Translated } from './rrset-changes';
import type { RRsetInput, ZoneInput } from '../schemas';
import { checkTsigKeyIds } from '../tsig-key-ids';
import type { SoaIdentity } from './zone-view';

/** Whether a PowerDNS kind names a secondary zone (Slave, or its newer name Secondary). */
export const isSecondaryKind = (kind: string | undefined): boolean => ['slave', 'secondary'].includes(kind?.toLowerCase() ?? '');

/** Zone kinds zonedeck can be: a primary (Native, Master), or a secondary of primaries elsewhere (Slave). */
export function checkKind(kind: string | undefined): void {
  if (kind === undefined) return;
  if (!['native', 'master', 'primary', 'slave', 'secondary'].includes(kind.toLowerCase())) {
    throw unprocessable(`kind '${kind}' is not supported: a zone is Native, Master or Slave; catalog zones (Producer, Consumer) are not made through this API`);
  }
}

/** Zone settings PowerDNS has and zonedeck cannot honour: refused rather than ignored. */
export function checkUnsupported(body: { kind?: string; masters?: string[]; nsec3param?: string; presigned?: boolean }): void {
  if (body.masters?.length && !isSecondaryKind(body.kind)) throw unprocessable('masters: only a zone of kind Slave has masters; zonedeck writes the records of the others itself');
  if (isSecondaryKind(body.kind) && !body.masters?.length) throw unprocessable('masters: a zone of kind Slave needs at least one master to transfer it from');
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

/**
 * Splits the client's RRsets: the SOA gives timers, the apex NS set is dropped, the rest are the
 * zone's records. Comments on the SOA or the apex NS set are kept, as PowerDNS keeps them.
 */
export function fromRRsets(list: readonly RRsetInput[], zone: string): { settings: ZoneSettings; rrsets: RRsetInput[]; positions: number[]; comments: CommentChange[] } {
  let settings: ZoneSettings = {};
  const rrsets: RRsetInput[] = [];
  const positions: number[] = [];
  const comments: CommentChange[] = [];
  const now = Math.floor(Date.now() / 1000);
  list.forEach((rs, i) => {
    let name: string | null = null;
    try {
      name = normalizeRecordName(asAbsolute(rs.name), zone);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
    }
    const type = rs.type.trim().toUpperCase();
    if (name === APEX && (type === 'SOA' || type === 'NS')) {
      if (rs.comments?.length) comments.push({ name, record_type: type, comments: rs.comments.map((c) => ({ content: c.content, account: c.account ?? '', modified_at: c.modified_at ?? now })) });
      const soa = rs.records?.[0];
      if (type === 'SOA' && soa) settings = soaTimers(soa.content, `rrsets.${i}.records.0`);
      return;
    }
    // In a new zone every RRset is created, whatever changetype a client put on it.
    rrsets.push({ ...rs, changetype: 'REPLACE' });
    positions.push(i);
  });
  return { settings, rrsets, positions, comments };
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

/**
 * `nameservers` on creation: the service's set, in any order, dots or not; 422 with the expected set
 * otherwise, and with PowerDNS's words first where it refuses the same body: the list beside an
 * apex NS set in `rrsets`, a name without its trailing dot.
 */
function checkNameservers(body: ZoneInput, zone: string, identity: SoaIdentity): void {
  const given = body.nameservers;
  if (!given || given.length === 0) return;
  const apexNs = body.rrsets?.some((rs) => rs.type.trim().toUpperCase() === 'NS' && rs.records !== undefined && isApex(rs.name, zone));
  if (apexNs) throw unprocessable('Nameservers list MUST NOT be mixed with zone-level NS in rrsets: give the apex NS set in one of them (zonedeck puts NAMESERVERS there either way)');
  const norm = (n: string) => n.trim().toLowerCase().replace(/\.$/, '');
  const want = new Set(identity.nameservers.map(norm));
  const got = new Set(given.map(norm));
  if (got.size === want.size && [...got].every((n) => want.has(n))) return;
  const undotted = given.find((n) => !n.trim().endsWith('.'));
  const head = undotted === undefined ? '' : `Nameserver is not canonical: '${undotted.slice(0, 255)}'; `;
  throw unprocessable(
    `${head}nameservers: zonedeck serves every zone from its own name servers (NAMESERVERS): send exactly ${identity.nameservers.map((n) => `"${dotted(n)}"`).join(', ')}, or leave nameservers out`,
  );
}

const isApex = (name: string, zone: string): boolean => {
  try {
    return normalizeRecordName(asAbsolute(name), zone) === APEX;
  } catch (e) {
    if (e instanceof RuleError) return false;
    throw e;
  }
};

/** PowerDNS's characters for a zone name (pdns/ws-api.cc `apiCheckNameAllowedCharacters`); other code points are IDN, which zonedeck reads. */
const UNSUPPORTED = /[\x00-\x2c:-@[-^`{-\x7f]/;

/**
 * The zone's name, with PowerDNS's words first where it refuses the same name (pdns/ws-api.cc
 * `apiNameToZoneName`): none is "not canonical", an empty label "Unable to parse", a character
 * outside its set "unsupported"; zonedeck's own rule follows. 422 naming `name`.
 */
function zoneNameOf(raw: string | undefined): string {
  const name = raw ?? '';
  if (name.trim() === '') throw unprocessable(`name: DNS Name '' is not canonical: give the zone's name, e.g. "example.org."`);
  const shown = name.slice(0, 255);
  try {
    if (UNSUPPORTED.test(name.trim())) throw new RuleError(`Name '${shown}' contains unsupported characters: a zone name has letters, digits, hyphens and dots (and RFC 2317 slashes)`);
    if (name.trim() === '.') throw new RuleError('zonedeck does not host the root zone');
    if (/\.\./.test(name) || name.trim().startsWith('.')) throw new RuleError(`Unable to parse Zone Name '${shown}': a label is empty`);
    return normalizeZoneName(name);
  } catch (e) {
    if (e instanceof RuleError) throw unprocessable(`name: ${e.message}`);
    throw e;
  }
}

/** A zone file's errors in one line, `line 4: …`, with PowerDNS's words first where it has some. */
function fileErrors(fields: Record<string, string>, file: string): string {
  const lines = file.split('\n');
  return Object.entries(fields)
    .map(([k, v]) => {
      const n = /^line ([0-9]+)$/.exec(k);
      const words = n ? zoneFileWords(lines[Number(n[1]) - 1] ?? '', v) : null;
      return `${words ? `${words}: ` : ''}${k}: ${v}`;
    })
    .join('; ');
}

/** What the service's configuration gives a new zone. */
export interface ZoneDefaults {
  /** CATALOG_ZONE: a primary zone made without `catalog` is answered as a member of it, as PowerDNS's `default-catalog-zone` does. */
  catalog?: string;
}

export async function createZone(services: Services, identity: SoaIdentity, userId: number, body: ZoneInput, opts: WriteOptions, defaults: ZoneDefaults = {}): Promise<DomainRow> {
  const { zones, store } = services;
  // In PowerDNS's order: the name, the kind, then what comes with the zone.
  const zoneName = zoneNameOf(body.name);
  checkKind(body.kind);
  checkUnsupported(body);
  checkNameservers(body, zoneName, identity);
  const fetchKey = await checkTsigKeyIds(services, userId, zoneName, body, isSecondaryKind(body.kind));
  if (isSecondaryKind(body.kind)) return createSecondary(services, userId, zoneName, body, fetchKey, opts);
  const primary = ['master', 'primary'].includes(body.kind?.toLowerCase() ?? '');
  const catalog = body.catalog === undefined && primary && defaults.catalog ? { catalog: defaults.catalog } : {};
  const attributes = attributesOf({ ...body, ...catalog }, DEFAULT_ZONE_ATTRIBUTES);
  if (body.rrsets?.length && body.zone) throw unprocessable('give either rrsets or zone (a zone file), not both');
  const given = body.rrsets ? fromRRsets(body.rrsets, zoneName) : null;
  // A zone file's records are part of the zone's first change set, as for POST /api/v1/domains with zone_file.
  let file: ReturnType<typeof fileBuilder> | undefined;
  try {
    file = body.zone === undefined ? undefined : fileBuilder(await services.zoneFiles.read(body.zone, zoneName, given?.settings.minimum_ttl ?? SOA_DEFAULTS.minimum_ttl), 'merge');
  } catch (e) {
    if (e instanceof Invalid) throw unprocessable(`zone: ${fileErrors(e.fields, body.zone!)}`);
    throw e;
  }

  let zone: DomainRow;
  try {
    zone = await asFileErrors(() => zones.create(userId, { name: zoneName, ...given?.settings, dnssec_enabled: body.dnssec }, opts, file?.build));
  } catch (e) {
    if (e instanceof Conflict) {
      const existing = await store.domains.byName(zoneName);
      // PowerDNS answers a bare `Conflict` (its HttpConflictException); the name is added.
      throw new PdnsError(409, `Conflict: ${existing ? `Domain '${dotted(zoneName)}' already exists` : e.message}`);
    }
    if (e instanceof Invalid) {
      const lines = Object.keys(e.fields).every((k) => k.startsWith('line ')) ? 'zone: ' : '';
      throw unprocessable(lines + fileErrors(e.fields, body.zone ?? ''));
    }
    throw e;
  }
  if (attributes) await services.zoneAttributes.set(zone, attributes);
  if (given?.comments.length) await writeComments(services.zoneAttributes, zone, { changes: [], comments: given.comments, from: [], labels: new Map() });
  if (!given?.rrsets.length) return zone;

  try {
    const apexNs = (await store.records.atName(zone.id, APEX)).filter((r) => r.record_type === 'NS');
    const t: Translated = translate(given.rrsets, { zone, apexNs, identity }, (k) => given.positions[k]!);
    const applied = await services.rrsets.patch(userId, zone.name, t.changes, opts).catch((e: unknown) => {
      throw clientError(e, t);
    });
    await writeComments(services.zoneAttributes, zone, t);
    return applied.zone;
  } catch (e) {
    // A creation undone: nothing to keep among the deleted zones.
    await zones.remove(userId, zone.name, undefined, undefined, { discard: true }).catch(() => {});
    throw e;
  }
}

/** A zone of kind Slave: a secondary of `masters`, transferred at once (its records come from them alone). */
async function createSecondary(services: Services, userId: number, name: string, body: ZoneInput, tsigKey: string | null, opts: WriteOptions): Promise<DomainRow> {
  if (body.rrsets?.length || body.zone) throw unprocessable('a zone of kind Slave takes its records from its masters: no rrsets or zone');
  if (body.dnssec) throw unprocessable('dnssec: a zone of kind Slave is served as its master signs it');
  try {
    const zone = await services.zones.create(userId, { name, secondary: { primaries: body.masters ?? [], tsig_key: tsigKey } }, opts);
    await services.secondaries.retrieve(userId, zone.name);
    return zone;
  } catch (e) {
    if (e instanceof Conflict) throw new PdnsError(409, `Conflict: Domain '${dotted(name)}' already exists`);
    if (e instanceof Invalid)
      throw unprocessable(
        Object.entries(e.fields)
          .map(([k, v]) => `${k === 'primaries' ? 'masters' : k}: ${v}`)
          .join('; '),
      );
    throw e;
  }
}
