/**
 * A zone as it will be after a change set: the records at the names the change touches,
 * loaded from the store once and edited in memory, then checked as a whole (the name
 * and record rules hold for the result, not for each step) and turned into the writes and the
 * history entries that take the store there. Builders (record CRUD, RRset PATCH, imports,
 * RFC 2136, reverts) only edit the draft; `change-sets.ts` validates and writes it.
 */
import { APEX, toFqdn } from '../../core/domain-name';
import { Conflict, Invalid } from '../../core/errors';
import { RECORD_TYPE_BY_NAME } from '../../core/record-types';
import { zoneRuleViolationsSliced } from '../../core/zone-rules';
import type { ChangeEntryRow, DomainRow, ListedRecord, NewRow, RecordRow, ReadRepos } from '../../store/types';
import { slicer, type Slicer } from '../../core/pause';
import { aliasTargetRefusal } from '../../core/zone-rules';

/** One record as a change set sees it: relative name, type, TTL and canonical content. */
export interface RecordData {
  name: string;
  record_type: string;
  ttl: number;
  content: string;
  /** A disabled record: kept and listed, never served, signed or transferred (absent: served). */
  disabled?: boolean;
}

/** A record of the draft; `id` is the stored row it stays (updated in place, keeping its id). */
export interface Entry {
  content: string;
  ttl: number;
  id?: number;
  /** Kept but not served (PowerDNS's `disabled`); the zone's rules still hold for it. */
  disabled?: boolean;
}

/** Which rule a record broke, so a builder can name the field its caller sent. */
export type Rule = 'cname-beside-data' | 'data-beside-cname' | 'apex-type' | 'managed-ns' | 'zone-rule';

/** The field to blame for a broken rule; `field` is the rule's own suggestion (name or record_type). */
export type Blame = (name: string, type: string, rule: Rule, field?: 'name' | 'record_type' | 'content') => string;

/** Record CRUD's fields: the type is to blame for a new CNAME, the name for data beside one. */
export const crudBlame: Blame = (_name, _type, rule, field) => field ?? (rule === 'data-beside-cname' ? 'name' : 'record_type');

export interface Writes {
  deletes: number[];
  inserts: NewRow<RecordRow>[];
  updates: { id: number; patch: Partial<NewRow<RecordRow>> }[];
  added: RecordData[];
  removed: RecordData[];
  /** Relative names whose records change. */
  names: string[];
}

const isManagedNs = (name: string, type: string) => name === APEX && type === 'NS';

/** The names above a relative name in its zone, nearest first, ending with the apex. */
function ancestorsOf(name: string): string[] {
  if (name === APEX) return [];
  // Tails of the one string (no split and join per label: a 127-label name would cost its length squared).
  const out: string[] = [];
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) out.push(name.slice(dot + 1));
  out.push(APEX);
  return out;
}

/** Whether a name lies below any of `cuts` (names of the zone, not the apex). */
const belowAny = (name: string, cuts: ReadonlySet<string>): boolean => cuts.size > 0 && ancestorsOf(name).some((n) => cuts.has(n));

/** Names the draft loads per query batch, between two yield points. */
const LOAD_NAMES = 2000;

/** New DNAMEs up to which the names below each are read by a query of its own; more, and the zone is read once. */
const DNAME_QUERIES = 16;

export class ZoneDraft {
  /** Rows as stored, by name, for every name loaded. */
  private readonly stored = new Map<string, ListedRecord[]>();
  /**
   * Names above loaded ones, not loaded themselves: whether each holds a DNAME (then it is in
   * `dnames`) is all a change below them needs of them (RFC 6672 §2.4: nothing below a DNAME).
   */
  private readonly probed = new Set<string>();
  private readonly dnames = new Set<string>();
  /** The records as they will be: name → type → entries. */
  private readonly sets = new Map<string, Map<string, Entry[]>>();
  private readonly touched = new Set<string>();
  private all = false;
  /** Whether the service's own sets (the apex NS) may change: zone creation only. */
  system = false;

  constructor(
    private readonly tx: ReadRepos,
    readonly zone: DomainRow,
    private readonly options: { aliasResolver?: boolean; aliasDeny?: readonly string[]; slice?: Slicer } = {},
  ) {
    this.slice = options.slice ?? slicer();
  }

  /** The yield point of the change's long loops (and where it stops when its client goes away). */
  private readonly slice: Slicer;

  /**
   * Loads the records at these names, and whether the names above them in the zone hold a
   * DNAME (one query for both): `validate` checks every touched name against a DNAME above it.
   */
  async load(names: Iterable<string>): Promise<void> {
    if (this.all) return;
    const wanted = new Set<string>();
    for (const name of names) if (!this.stored.has(name)) wanted.add(name);
    // A few thousand names at a time, the event loop turning between: a template may name 200,000.
    const list = [...wanted];
    for (let i = 0; i < list.length; i += LOAD_NAMES) {
      if (i > 0) await this.slice();
      await this.loadSome(new Set(list.slice(i, i + LOAD_NAMES)));
    }
  }

  private async loadSome(missing: Set<string>): Promise<void> {
    const above = new Set<string>();
    for (const name of missing) for (const n of ancestorsOf(name)) if (!this.stored.has(n) && !missing.has(n) && !this.probed.has(n)) above.add(n);
    if (missing.size === 0 && above.size === 0) return;
    const byName = new Map<string, ListedRecord[]>();
    for (const n of missing) byName.set(n, []);
    const near = await this.tx.records.near(this.zone.id, [...missing], [...above]);
    for (const row of near.rows) byName.get(row.name)!.push(row);
    for (const n of above) this.probed.add(n);
    for (const n of near.dnames) this.dnames.add(n);
    for (const [name, rows] of byName) this.adopt(name, rows);
  }

  /** Loads the whole zone (imports that replace it). */
  async loadAll(): Promise<void> {
    if (this.all) return;
    const byName = new Map<string, RecordRow[]>();
    for (const row of await this.tx.records.byDomain(this.zone.id)) {
      const list = byName.get(row.name);
      if (list) list.push(row);
      else byName.set(row.name, [row]);
    }
    for (const [name, rows] of byName) {
      await this.slice();
      if (!this.stored.has(name)) this.adopt(name, rows);
    }
    this.all = true;
  }

  private adopt(name: string, rows: ListedRecord[]): void {
    this.stored.set(name, rows);
    const types = new Map<string, Entry[]>();
    for (const r of rows) {
      const e: Entry = { content: r.content, ttl: r.ttl, id: r.id };
      if (r.disabled) e.disabled = true;
      const list = types.get(r.record_type);
      if (list) list.push(e);
      else types.set(r.record_type, [e]);
    }
    this.sets.set(name, types);
  }

  private node(name: string): Map<string, Entry[]> {
    if (!this.stored.has(name)) {
      if (!this.all) throw new Error(`zone draft: ${name} was not loaded`);
      this.adopt(name, []);
    }
    return this.sets.get(name)!;
  }

  /** The RRset as it will be (a copy); the name must be loaded. */
  rrset(name: string, type: string): Entry[] {
    return [...(this.node(name).get(type) ?? [])];
  }

  /** The types at a name as they will be. */
  types(name: string): string[] {
    const out: string[] = [];
    for (const [type, entries] of this.node(name)) if (entries.length > 0) out.push(type);
    return out;
  }

  /** The types at a name that will be served (a disabled record is kept, not served). */
  servedTypes(name: string): string[] {
    const out: string[] = [];
    for (const [type, entries] of this.node(name)) if (entries.some((e) => !e.disabled)) out.push(type);
    return out;
  }

  /** Every loaded name (every name of the zone after loadAll). */
  names(): string[] {
    return [...this.sets.keys()];
  }

  /**
   * Sets an RRset to exactly these entries (none: deletes it). One TTL per RRset (RFC 2181
   * §5.2): `ttl` applies to every record of the set. Duplicate contents collapse into one.
   */
  put(name: string, type: string, entries: readonly Entry[], ttl: number): void {
    const node = this.node(name);
    // A record that stays keeps its row (and id), whoever rebuilt the set.
    const current = new Map((node.get(type) ?? []).map((e) => [e.content, e.id]));
    const seen = new Set<string>();
    const out: Entry[] = [];
    for (const e of entries) {
      if (seen.has(e.content)) continue;
      seen.add(e.content);
      const entry: Entry = { content: e.content, ttl, id: e.id ?? current.get(e.content) };
      if (e.disabled) entry.disabled = true;
      out.push(entry);
    }
    if (out.length > 0) node.set(type, out);
    else node.delete(type);
    this.touched.add(name);
  }

  /**
   * Checks the §4 and §12 rules on every name the change touches, as it will be: CNAME
   * exclusivity (RFC 1034 §3.6.2, RFC 2181 §10.1), types allowed at the apex, the managed
   * apex NS set, DS only at a delegation (RFC 4035 §2.4), one DNAME per name, none beside a
   * delegation and nothing below one (RFC 6672 §2.4).
   */
  async validate(blame: Blame = crudBlame): Promise<void> {
    const invalid: Record<string, string> = {};
    for (const name of this.touched) {
      await this.slice();
      const label = toFqdn(name, this.zone.name);
      const types = this.types(name);
      const cname = this.node(name).get('CNAME') ?? [];
      if (cname.length > 0 && (types.length > 1 || cname.length > 1)) {
        const hadCname = (this.stored.get(name) ?? []).some((r) => r.record_type === 'CNAME');
        const others = types.filter((t) => t !== 'CNAME');
        if (hadCname && others.length > 0) {
          throw new Conflict(`${label} is a CNAME; no other record can stand beside it`, {
            [blame(name, others[0]!, 'data-beside-cname')]: `${label} has a CNAME record; no other record can stand beside it (RFC 1034 §3.6.2)`,
          });
        }
        const what = others.length > 0 ? `${others.join(', ')} records exist` : 'a CNAME record already exists';
        throw new Conflict(`${label}: ${what}; a CNAME excludes all other data at its name`, {
          [blame(name, 'CNAME', 'cname-beside-data')]: `${what} at ${label}; a CNAME must be the only record at its name (RFC 1034 §3.6.2)`,
        });
      }
      if (name === APEX) {
        for (const type of types) {
          const def = RECORD_TYPE_BY_NAME.get(type);
          if (def && !def.allowedAtApex && type !== 'NS') invalid[blame(name, type, 'apex-type')] = def.apexRule ?? `a ${type} record cannot stand at the zone apex (RFC 1034 §3.6.2)`;
        }
        if (!this.system && this.nsChanged()) invalid[blame(name, 'NS', 'managed-ns')] = 'the NS set at the apex is managed by zonedeck';
      }
      // An ALIAS to a name only internal resolvers answer would publish internal addresses.
      for (const alias of types.includes('ALIAS') ? this.rrset(name, 'ALIAS') : []) {
        const why = aliasTargetRefusal(alias.content, this.options.aliasDeny);
        if (why) invalid[blame(name, 'ALIAS', 'zone-rule', 'content')] = why;
      }
      // A new ALIAS the DNS server could never resolve would leave its name without addresses: refuse it now.
      if (!this.options.aliasResolver && types.includes('ALIAS') && !(this.stored.get(name) ?? []).some((r) => r.record_type === 'ALIAS')) {
        invalid[blame(name, 'ALIAS', 'zone-rule', 'record_type')] = 'ALIAS needs a resolver to look its target up: the operator must set RESOLVER (host:port of a recursive resolver)';
      }
    }
    for (const v of await this.zoneRules()) invalid[blame(v.record.name, v.record.record_type, 'zone-rule', v.field)] ??= v.message;
    if (Object.keys(invalid).length > 0) throw new Invalid(invalid);
  }

  /**
   * The cross-record rules of core/zone-rules.ts (DS, DNAME, ALIAS) on the touched names, with a
   * DNAME above them and, under a new DNAME, whatever lies below it; with the delegations above
   * a touched ALIAS and the ALIAS records below a new delegation. A name above that the change
   * leaves alone is not judged: what breaks a rule there was there before the change.
   */
  private async zoneRules() {
    const changed = [...this.touched].filter((n) => this.types(n).length > 0 || this.stored.get(n)?.length);
    if (changed.length === 0) return [];
    const names = new Set(changed);
    const dnames = new Set(changed.filter((name) => name !== APEX && this.types(name).includes('DNAME')));
    if (dnames.size > 0) {
      // Names below a new DNAME, as they are stored (the draft knows those it loaded). Each query
      // scans the zone (a suffix match): past a few DNAMEs, one read of the whole zone costs less.
      if (dnames.size > DNAME_QUERIES) await this.loadAll();
      for (const name of this.all ? [] : dnames) {
        const below = await this.tx.records.page(this.zone.id, { below: name }, { offset: 0, limit: 20 });
        await this.load(below.rows.map((r) => r.name).filter((n) => n !== name));
      }
      for (const n of this.names()) if (belowAny(n, dnames)) names.add(n);
    }
    const context = await this.aliasContext(changed);
    // Every name above a judged one is loaded or probed by `load`; after `loadAll` a name not stored has no records.
    const above = new Set<string>();
    for (const name of names) for (const n of ancestorsOf(name)) if (!names.has(n)) above.add(n);
    const records: { name: string; record_type: string }[] = [];
    for (const name of names) {
      await this.slice();
      for (const [record_type, entries] of this.node(name)) for (let i = 0; i < entries.length; i++) records.push({ name, record_type });
    }
    for (const name of context) if (!names.has(name)) for (const type of ['NS', 'ALIAS']) if (this.node(name).get(type)?.length) records.push({ name, record_type: type });
    for (const name of above) {
      if (this.stored.has(name) || this.all) {
        if (this.node(name).get('DNAME')?.length) records.push({ name, record_type: 'DNAME' });
      } else if (!this.probed.has(name)) {
        throw new Error(`zone draft: ${name} was neither loaded nor probed for a DNAME`);
      } else if (this.dnames.has(name)) {
        records.push({ name, record_type: 'DNAME' });
      }
    }
    return (await zoneRuleViolationsSliced(this.zone.name, records, this.slice)).filter(
      (v) => names.has(v.record.name) && v.record.record_type !== 'CNAME' && !(v.field === 'name' && this.types(v.record.name).includes('CNAME')),
    );
  }

  /**
   * The names besides the touched ones that the ALIAS rules need (an ALIAS below a delegation is
   * never answered): the names above a touched ALIAS, which may delegate, and the ALIAS records
   * below a new delegation, all loaded. Nothing is read for a change without either.
   */
  private async aliasContext(changed: readonly string[]): Promise<string[]> {
    const above = new Set<string>();
    const cuts: string[] = [];
    for (const name of changed) {
      if (name === APEX) continue;
      const types = this.types(name);
      if (types.includes('ALIAS')) for (const n of ancestorsOf(name)) if (n !== APEX) above.add(n);
      if (types.includes('NS') && !(this.stored.get(name) ?? []).some((r) => r.record_type === 'NS')) cuts.push(name);
    }
    const below = new Set<string>();
    if (cuts.length > 0) {
      // By each name's ancestors, not each cut: a template of many delegations meets as many names.
      const cutSet = new Set(cuts);
      const under = (n: string) => belowAny(n, cutSet);
      if (this.all) {
        for (const n of this.names()) if (under(n)) below.add(n);
      } else {
        // A zone holds few ALIAS records: read them all, a bounded page at a time (records_type index).
        for (let after: { name: string; id: number } | null = null; ; ) {
          const page = await this.tx.records.ofType(this.zone.id, 'ALIAS', after, 500);
          for (const r of page) if (under(r.name)) below.add(r.name);
          if (page.length < 500) break;
          after = { name: page.at(-1)!.name, id: page.at(-1)!.id };
        }
      }
    }
    if (above.size === 0 && below.size === 0) return [];
    await this.load([...above, ...below]);
    return [...above, ...below];
  }

  private nsChanged(): boolean {
    // Disabling an apex NS takes it out of the served set: a change of the managed set too.
    const before = (this.stored.get(APEX) ?? []).filter((r) => isManagedNs(r.name, r.record_type) && !r.disabled);
    const after = (this.node(APEX).get('NS') ?? []).filter((e) => !e.disabled);
    if (before.length !== after.length) return true;
    return before.some((r) => !after.some((e) => e.content === r.content && e.ttl === r.ttl));
  }

  /**
   * The writes that take the store from what was loaded to the draft, and the history's view
   * of them: every record removed or added (a TTL change is the old record removed and the
   * new one added, as IXFR sees it).
   */
  async writes(at: string): Promise<Writes> {
    const w: Writes = { deletes: [], inserts: [], updates: [], added: [], removed: [], names: [] };
    const domainId = this.zone.id;
    // Rows kept in place by id, wherever they moved to.
    const kept = new Map<number, { name: string; type: string; entry: Entry }>();
    for (const name of this.touched) {
      await this.slice();
      for (const [type, entries] of this.sets.get(name)!) for (const e of entries) if (e.id !== undefined) kept.set(e.id, { name, type, entry: e });
    }
    const changedNames = new Set<string>();
    for (const name of this.touched) {
      await this.slice();
      const rows = this.stored.get(name) ?? [];
      const node = this.sets.get(name)!;
      for (const row of rows) {
        const k = kept.get(row.id);
        const data: RecordData = { name: row.name, record_type: row.record_type, ttl: row.ttl, content: row.content };
        if (row.disabled) data.disabled = true;
        if (!k) {
          w.deletes.push(row.id);
          w.removed.push(data);
          changedNames.add(name);
          continue;
        }
        const disabled = k.entry.disabled === true;
        const same = k.name === row.name && k.type === row.record_type && k.entry.content === row.content && k.entry.ttl === row.ttl && disabled === (row.disabled === 1);
        if (same) continue;
        w.updates.push({ id: row.id, patch: { name: k.name, record_type: k.type, content: k.entry.content, ttl: k.entry.ttl, updated_at: at, disabled: disabled ? 1 : 0 } });
        w.removed.push(data);
        w.added.push(disabled ? { name: k.name, record_type: k.type, ttl: k.entry.ttl, content: k.entry.content, disabled } : { name: k.name, record_type: k.type, ttl: k.entry.ttl, content: k.entry.content });
        changedNames.add(name).add(k.name);
      }
      for (const [type, entries] of node) {
        for (const e of entries) {
          if (e.id !== undefined) continue;
          w.inserts.push({ domain_id: domainId, name, record_type: type, content: e.content, ttl: e.ttl, created_at: at, updated_at: at, disabled: e.disabled ? 1 : 0 });
          w.added.push(e.disabled ? { name, record_type: type, ttl: e.ttl, content: e.content, disabled: true } : { name, record_type: type, ttl: e.ttl, content: e.content });
          changedNames.add(name);
        }
      }
    }
    w.names = [...changedNames];
    return w;
  }
}

/**
 * Entries of the history for these records: removed first, as IXFR lists them (RFC 1995 §4).
 * A disabled record's entry keeps its flag: IXFR skips it, a revert restores it disabled.
 */
export function historyEntries(w: Pick<Writes, 'added' | 'removed'>): ChangeEntryRow[] {
  const entry = (op: 0 | 1, r: RecordData): ChangeEntryRow => ({ op, name: r.name, record_type: r.record_type, ttl: r.ttl, content: r.content, disabled: r.disabled ? 1 : 0 });
  return [...w.removed.map((r) => entry(0, r)), ...w.added.map((r) => entry(1, r))];
}
