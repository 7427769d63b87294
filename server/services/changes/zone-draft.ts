/**
 * A zone as it will be after a change set: the records at the names the change touches,
 * loaded from the store once and edited in memory, then checked as a whole (the name
 * and record rules hold for the result, not for each step) and turned into the writes and the
 * history entries that take the store there. Writers (record CRUD, RRset PATCH, imports,
 * RFC 2136, reverts) only edit the draft, through a change set's handle (change-sets/); the rules
 * are judged in draft-rules.ts and the writes made in draft-writes.ts.
 */
import type { DomainRow, ListedRecord, RecordRow, ReadRepos } from '../../store/types';
import { slicer, type Slicer } from '../../core/pause';
import { ancestorsOf, validateDraft } from './draft-rules';
import { draftWrites, type Writes } from './draft-writes';

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

/** Names the draft loads per query batch, between two yield points. */
const LOAD_NAMES = 2000;

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
  /**
   * Whether the change is a zone transfer from a signed primary, which alone may write the
   * DNSSEC types (`transferOnly` in the registry; see `mayWriteTransferOnly` in draft-rules.ts).
   */
  transfer = false;

  constructor(
    private readonly tx: ReadRepos,
    readonly zone: DomainRow,
    readonly options: { aliasResolver?: boolean; aliasDeny?: readonly string[]; slice?: Slicer } = {},
  ) {
    this.slice = options.slice ?? slicer();
  }

  /** The yield point of the change's long loops (and where it stops when its client goes away). */
  readonly slice: Slicer;

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

  /** Loads up to `limit` names stored below `name` (what a new DNAME there would hide). */
  async loadBelow(name: string, limit: number): Promise<void> {
    const below = await this.tx.records.page(this.zone.id, { below: name }, { offset: 0, limit });
    await this.load(below.rows.map((r) => r.name).filter((n) => n !== name));
  }

  /** The names that hold a stored record of `type`, read a bounded page at a time (the zone's few ALIAS records). */
  async storedNamesOfType(type: string): Promise<string[]> {
    const out: string[] = [];
    for (let after: { name: string; id: number } | null = null; ;) {
      const page = await this.tx.records.ofType(this.zone.id, type, after, 500);
      for (const r of page) out.push(r.name);
      if (page.length < 500) return out;
      after = { name: page.at(-1)!.name, id: page.at(-1)!.id };
    }
  }

  /**
   * The stored record `id` as this draft loaded it: looked for at `name` first, where the caller
   * last saw it (then the load the change needs anyway is its only read); read by id only when it
   * moved since. Undefined when the zone no longer holds it.
   */
  async record(id: number, name?: string): Promise<ListedRecord | undefined> {
    if (name !== undefined) {
      await this.load([name]);
      const seen = this.storedAt(name).find((r) => r.id === id);
      if (seen) return seen;
    }
    const row = await this.tx.records.byId(this.zone.id, id);
    if (!row) return undefined;
    await this.load([row.name]);
    return this.storedAt(row.name).find((r) => r.id === id) ?? row;
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

  /** The RRsets at a loaded name as they will be, by type (read only: `put` changes them). */
  at(name: string): ReadonlyMap<string, readonly Entry[]> {
    return this.node(name);
  }

  /** The rows stored at a name, as loaded (none when it was not loaded or holds nothing). */
  storedAt(name: string): readonly ListedRecord[] {
    return this.stored.get(name) ?? [];
  }

  /** Whether the name's stored rows are known: loaded, or the whole zone was. */
  isKnown(name: string): boolean {
    return this.all || this.stored.has(name);
  }

  /** Whether the whole zone is loaded. */
  get whole(): boolean {
    return this.all;
  }

  /** Whether a name probed above a loaded one holds a DNAME; undefined when it was not probed. */
  dnameAt(name: string): boolean | undefined {
    return this.probed.has(name) ? this.dnames.has(name) : undefined;
  }

  /** The names the change has put an RRset at. */
  touchedNames(): ReadonlySet<string> {
    return this.touched;
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
   * Checks the zone's rules on every name the change touches, as it will be (draft-rules.ts):
   * CNAME exclusivity, the apex, the managed apex NS set, DS, DNAME and ALIAS.
   */
  validate(blame: Blame = crudBlame): Promise<void> {
    return validateDraft(this, blame);
  }

  /** The writes that take the store from what was loaded to the draft, and the history's view of them (draft-writes.ts). */
  writes(at: string): Promise<Writes> {
    return draftWrites(this, at);
  }
}

export { historyEntries, type Writes } from './draft-writes';
