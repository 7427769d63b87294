/**
 * Zones in and out as RFC 1035 master files. An import is one change set
 * (source `import`): it replaces the zone's records with the file's (or, merging, adds them),
 * takes the file's SOA timers as the zone's fields (its serial is ignored: the zone's own
 * keeps rising) and leaves the apex NS set to the service. Every problem answers 400 with
 * `fields` keyed `line <n>`, and nothing is applied.
 */
import { APEX } from '../../core/domain-name';
import { poolKey, readPools } from '../../core/pools';
import { Conflict, Invalid } from '../../core/errors';
import { SOA_BOUNDS, SOA_FIELDS, soaErrors, type SoaField, type SoaTimers } from '../../core/soa';
import { parseZoneFileChunked, printZoneFile, zoneFileInvalid, type ZoneFileIgnored, type ZoneFileRecord, type ZoneFileSoa } from '../../core/zone-file';
import type { ParsedZoneFile } from '../../core/zone-file/parser';
import type { DomainRow, ServiceStore } from '../../store/types';
import type { Applied, ChangeSets, Edit, Target, WriteOptions } from '../changes/change-sets';
import type { Blame } from '../changes/zone-draft';
import { pauseEvery } from '../../core/pause';

export interface ZoneIdentity {
  /** SOA MNAME: the first of NAMESERVERS. */
  primary: string;
  /** SOA RNAME. */
  hostmaster: string;
}

export interface ImportResult {
  /** What the file held that the zone does not take, by line (DNSSEC records, the apex NS set, …). */
  ignored: ZoneFileIgnored[];
}

const key = (name: string, type: string) => `${name} ${type}`;

/** One RRset of a file: its first line, its TTL and its contents. */
interface FileRRset {
  name: string;
  type: string;
  line: number;
  ttl: number;
  contents: string[];
}

/** Records grouped into RRsets and their SOA timers: an import as prepared before the write lock. */
export interface PreparedRecords {
  sets: Map<string, FileRRset>;
  /** The names the records are at. */
  names: Set<string>;
  soa?: ZoneFileSoa;
}

/** A zone file read and prepared: parsed, bounded, and grouped into RRsets. */
export type PreparedZoneFile = ParsedZoneFile & PreparedRecords;

/**
 * Groups records into RRsets, before any transaction (a change is prepared before the
 * write lock and only applied to the draft inside it), letting the event loop run between chunks.
 */
export async function prepareRecords(zone: { records: readonly ZoneFileRecord[]; soa?: ZoneFileSoa }): Promise<PreparedRecords> {
  const sets = new Map<string, FileRRset>();
  const names = new Set<string>();
  let n = 0;
  for (const r of zone.records) {
    await pauseEvery(++n);
    names.add(r.name);
    const k = key(r.name, r.record_type);
    const set = sets.get(k);
    // One TTL per RRset (RFC 2181 §5.2): a file that disagrees with itself gets the lowest.
    if (set) {
      set.contents.push(r.content);
      set.ttl = Math.min(set.ttl, r.ttl);
    } else sets.set(k, { name: r.name, type: r.record_type, line: r.line, ttl: r.ttl, contents: [r.content] });
  }
  return { sets, names, soa: zone.soa };
}

/** Applies a prepared file to the draft: replacing every record of the zone, or adding to them. */
async function applyFile(edit: Edit, { sets, names }: PreparedRecords, mode: 'replace' | 'merge'): Promise<Blame> {
  const { draft } = edit;
  let n = 0;
  if (mode === 'replace') {
    await draft.loadAll();
    for (const name of draft.names()) {
      await pauseEvery(++n);
      for (const type of draft.types(name)) {
        if (name === APEX && type === 'NS') continue;
        if (!sets.has(key(name, type))) draft.put(name, type, [], 0);
      }
    }
  } else {
    await draft.load(names);
  }
  for (const set of sets.values()) {
    await pauseEvery(++n);
    const entries = set.contents.map((content) => ({ content, ttl: set.ttl }));
    draft.put(set.name, set.type, mode === 'merge' ? [...draft.rrset(set.name, set.type), ...entries] : entries, set.ttl);
  }
  // A broken rule is blamed on the line of the RRset that breaks it.
  return (name, type) => {
    const set = sets.get(key(name, type)) ?? [...sets.values()].find((s) => s.name === name);
    return set ? `line ${set.line}` : `${name === APEX ? '@' : name} ${type}`;
  };
}

/** The file's SOA timers as zone settings, each checked against the bounds the API sets. */
function soaSettings(zone: DomainRow, soa: { refresh: number; retry: number; expire: number; minimum: number; line: number }): Partial<SoaTimers> {
  const timers: SoaTimers = { refresh_interval: soa.refresh, retry_interval: soa.retry, expire_interval: soa.expire, minimum_ttl: soa.minimum };
  const errors = soaErrors(timers, new Set(SOA_FIELDS.filter((f) => timers[f] !== zone[f])));
  const bad = Object.entries(errors) as [SoaField, string][];
  if (bad.length > 0) {
    throw new Invalid({ [`line ${soa.line}`]: bad.map(([f, m]) => `SOA ${SOA_BOUNDS[f].label.toLowerCase()} (${f}) ${timers[f]}: ${m}`).join('; ') });
  }
  return timers;
}

/**
 * A change-set builder that applies a master file to the zone being edited; `ignored` holds,
 * once it ran, what the file had that the zone does not take.
 */
export function fileBuilder(parsed: PreparedZoneFile, mode: 'replace' | 'merge') {
  return {
    ignored: () => parsed.ignored,
    build: (edit: Edit): Promise<void> => recordsBuild(edit, parsed, mode),
  };
}

/** Applies records read from a file or a transfer, prepared (and their SOA timers), to the draft. */
export async function recordsBuild(edit: Edit, prepared: PreparedRecords, mode: 'replace' | 'merge'): Promise<void> {
  if (prepared.soa) Object.assign(edit.settings, soaSettings(edit.zone, prepared.soa));
  edit.blame = await applyFile(edit, prepared, mode);
}

/** Every problem with a file is a problem on one of its lines: 400, as for a parse error. */
export async function asFileErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Conflict && e.fields && Object.keys(e.fields).every((k) => k.startsWith('line '))) throw new Invalid(e.fields, e.message);
    throw e;
  }
}

export function createZoneFiles(store: ServiceStore, changes: ChangeSets, identity: ZoneIdentity, maxRecords = 200_000) {
  /**
   * Reads a master file for the zone `origin`, before any transaction: bounded (names, $GENERATE,
   * at most MAX_RECORDS_PER_ZONE records, short error texts) and in chunks that let the event loop
   * run. Invalid (400, `fields` keyed `line <n>`) on any error.
   */
  async function read(text: string, origin: string, defaultTtl: number): Promise<PreparedZoneFile> {
    const parsed = await parseZoneFileChunked(text, origin, { defaultTtl, maxRecords });
    if (parsed.errors.length > 0) throw zoneFileInvalid(parsed.errors);
    return { ...parsed, ...(await prepareRecords(parsed)) };
  }

  /** Imports `text` into `zone` (its change set opened on `target`: the zone itself, or a `Locate` finding it in the transaction), as one change set (source `import`). */
  async function importInto(zone: DomainRow, target: Target, text: string, mode: 'replace' | 'merge', opts: WriteOptions): Promise<Applied<ImportResult>> {
    const file = fileBuilder(await read(text, zone.name, zone.minimum_ttl), mode);
    return asFileErrors(() =>
      changes.update(target, { ...opts, source: 'import' }, async (u) => {
        await file.build(u);
        return { ignored: file.ignored() };
      }),
    );
  }

  /** Imports records already read (a zone transfer) into the zone `target` names, as one change set. */
  async function importRecords(target: Target, zone: { records: readonly ZoneFileRecord[]; soa?: ZoneFileSoa }, mode: 'replace' | 'merge', opts: WriteOptions) {
    const prepared = await prepareRecords(zone);
    return asFileErrors(() => changes.update(target, { ...opts, source: 'import' }, (u) => recordsBuild(u, prepared, mode)));
  }

  return {
    read,
    importInto,
    importRecords,

    /** The zone as a master file: $ORIGIN, $TTL, SOA, the apex NS set and every served record; no DNSSEC records, no disabled ones. */
    async export(zone: DomainRow): Promise<string> {
      const rows = await store.records.byDomain(zone.id);
      return printZoneFile(
        zone.name,
        {
          // A secondary's SOA is its primary's, as served.
          mname: zone.soa_mname ?? identity.primary,
          rname: zone.soa_rname ?? identity.hostmaster,
          serial: zone.serial_number,
          refresh: zone.refresh_interval,
          retry: zone.retry_interval,
          expire: zone.expire_interval,
          minimum: zone.minimum_ttl,
        },
        // The file is the zone as served: a disabled record is not in it (as PowerDNS exports).
        rows.filter((r) => !r.disabled).map((r) => ({ name: r.name, record_type: r.record_type, ttl: r.ttl, content: r.content })),
        poolNotes(zone),
      );
    },
  };
}

export type ZoneFiles = ReturnType<typeof createZoneFiles>;

/** What the file says above each pool's set: that it is the pool's answer now, which the health checks change. */
function poolNotes(zone: DomainRow): Map<string, string> {
  const at = new Date().toISOString();
  return new Map(
    readPools(zone.pools).map((p) => [
      poolKey(p),
      `health-checked pool (${p.policy}, ${p.check.kind} checks of ${p.members.map((m) => m.address).join(', ')}): its answer at ${at}; zonedeck changes it as members go down and come back`,
    ]),
  );
}
