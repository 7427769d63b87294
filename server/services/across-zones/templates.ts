/**
 * Templates: named sets of RRsets with `{zone}` and `{var}` placeholders, owned by
 * a user or a team (members read a team's; its owners and admins change them). A zone is created
 * from one, or one is applied to many zones as a batch (merge: the template's RRsets replace the
 * zone's at their names and types; replace: the zone's other RRsets go too, but the apex NS set).
 * A zone remembers the template and variables it was rendered with, so drift can be shown.
 */
import { APEX, MAX_NAME_LENGTH, normalizeRecordName } from '../../core/domain-name';
import { Conflict, Forbidden, Invalid, NotFound, RuleError } from '../../core/errors';
import { recordType } from '../../core/record-types';
import { roleAtLeast } from '../../core/roles';
import { allowsZone, isRestricted, type Scope } from '../../core/scope';
import { slicer, type Slicer } from '../../core/pause';
import { fill, MAX_VARIABLES, placeholders, unfill, variableRefusal } from '../../core/template-render';
import { parseTtl } from '../../core/ttl';
import type { DomainRow, RecordRow, ServiceRepos, ServiceStore, Window } from '../../store/types';
import type { TemplateRow, TemplateRRset } from '../../store/template-types';
import type { Batches, BatchResult } from './batches';
import type { Edit, WriteOptions } from '../changes/change-sets';
import { FieldCheck } from '../changes/rule-fields';
import type { Zones } from '../zones/zones';

const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
const MAX_CONTENT = 4096;
export type ApplyMode = 'merge' | 'replace';

export interface TemplateInput {
  name?: string;
  description?: string;
  team?: string;
  rrsets?: Array<{ name?: string; record_type: string; ttl?: string; records: string[] }>;
  /** Take the RRsets of this zone (its name becomes `{zone}`). */
  from_zone?: string;
}

/** Who asks: the user and their credential's scope. */
export interface Asker {
  userId: number;
  scope?: Scope;
}

export type Variables = Record<string, string>;

/** An RRset where a zone differs from its template: records, or TTL (template's, zone's). */
type Difference = { name: string; record_type: string; expected: string[]; actual: string[]; ttl?: [number, number] };

/** The variables checked: bounded names and values (400 naming `variables.<name>`). */
export function parseVariables(raw: Record<string, unknown> | undefined): Variables {
  const out: Variables = {};
  const entries = Object.entries(raw ?? {});
  if (entries.length > MAX_VARIABLES) throw Invalid.field('variables', `must hold at most ${MAX_VARIABLES} variables`);
  const check = new FieldCheck();
  for (const [k, v] of entries) {
    const why = variableRefusal(k, v);
    if (why) check.fail(`variables.${k.slice(0, 40)}`, why);
    else out[k] = v as string;
  }
  check.done();
  return out;
}

/** How many records a template holds: what an apply builds in each zone, counted before anything is built. */
export const recordCount = (template: { rrsets: ReadonlyArray<{ records: readonly unknown[] }> }): number => template.rrsets.reduce((n, s) => n + s.records.length, 0);

/**
 * A template's RRsets as a zone gets them: placeholders filled, names and contents canonical;
 * Invalid naming `rrsets.<i>…` or `variables`. `slice` lets the event loop turn between RRsets.
 */
export async function render(template: Pick<TemplateRow, 'rrsets'>, zone: string, variables: Variables, slice: Slicer) {
  const check = new FieldCheck();
  const out = [];
  for (const [i, rs] of template.rrsets.entries()) {
    await slice();
    const at = `rrsets.${i}`;
    const type = check.run(`${at}.record_type`, () => recordType(rs.record_type));
    const name = check.run(`${at}.name`, () => normalizeRecordName(fill(rs.name, zone, variables), zone));
    // A variable may bring a name to the apex, whose NS set is the service's.
    if (name === APEX && type?.type === 'NS') check.fail(`${at}.name`, 'is the apex here, whose NS set is managed by zonedeck');
    const records = rs.records.map((c, j) => (type ? check.run(`${at}.records.${j}`, () => type.normalize(fill(c, zone, variables))) : undefined));
    out.push({ name: name!, type: type?.type ?? '', ttl: rs.ttl, records: [...new Set(records as string[])] });
  }
  check.done();
  return out;
}

/** Whether a template's name is the apex of every zone it is rendered for (`@`, `{zone}.`), whatever the variables. */
function rendersToApex(raw: string): boolean {
  if (placeholders(raw).length > 0) return false;
  try {
    return normalizeRecordName(raw.replaceAll('{zone}', 'template.invalid'), 'template.invalid') === APEX;
  } catch {
    return false;
  }
}

/** Templates are account settings: a credential limited in any way (zones, names, types, read-only, addresses) may not make or change them. */
function unscoped(asker: Asker, what: string): void {
  if (asker.scope && isRestricted(asker.scope)) throw new Forbidden(`a token or key with a scope cannot ${what} templates: they are account settings, used on every zone of the account`);
}

/** A change-set builder that puts the template's RRsets into the zone. */
export function templateBuild(template: Pick<TemplateRow, 'rrsets'>, variables: Variables, mode: ApplyMode) {
  return async (edit: Edit): Promise<void> => {
    const { draft, zone, slice } = edit;
    const sets = await render(template, zone.name, variables, slice);
    const given = new Set(sets.map((s) => `${s.name} ${s.type}`));
    if (mode === 'replace') {
      await draft.loadAll();
      for (const name of draft.names()) {
        await slice();
        for (const type of draft.types(name)) if ((name !== APEX || type !== 'NS') && !given.has(`${name} ${type}`)) draft.put(name, type, [], 0);
      }
    } else await draft.load(new Set(sets.map((s) => s.name)));
    for (const s of sets) {
      await slice();
      draft.put(s.name, s.type, s.records.map((content) => ({ content, ttl: s.ttl })), s.ttl);
    }
    // One lookup per broken rule, not a scan of the template: a template may break thousands.
    const last = new Map(sets.map((s, i) => [`${s.name} ${s.type}`, i]));
    edit.blame = (name, type) => {
      const at = last.get(`${name} ${type}`);
      return at === undefined ? 'rrsets' : `rrsets.${at}`;
    };
  };
}

export function createTemplates(store: ServiceStore, zones: Zones, batches: Batches, maxRecords: number) {
  /** The template as the user may read it: theirs, or their team's; anyone else's is NotFound. */
  async function visible(tx: ServiceRepos, userId: number, id: number): Promise<TemplateRow> {
    const t = await tx.templates.byId(id);
    const ok = t && (t.team_id == null ? t.user_id === userId : await tx.teams.member(t.team_id, userId));
    if (!t || !ok) throw new NotFound(`no template with id ${id}`);
    return t;
  }

  /** The template for a change: a team's only for its owners and admins. */
  async function changeable(tx: ServiceRepos, userId: number, id: number): Promise<TemplateRow> {
    const t = await visible(tx, userId, id);
    if (t.team_id != null) {
      const role = (await tx.teams.member(t.team_id, userId))?.role;
      if (!role || !roleAtLeast(role, 'admin')) throw new Forbidden(`only an owner or admin of the team may change its templates; your role is ${role}`);
    }
    return t;
  }

  /** A zone the asker may read (404 otherwise, as for a missing one) and their scope admits (403). */
  async function zoneOf(asker: Asker, name: string, field: string): Promise<DomainRow> {
    if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH + 1) throw Invalid.field(field, 'must be a domain name');
    const zone = await zones.owned(asker.userId, name);
    if (asker.scope && !allowsZone(asker.scope, zone.name)) throw new Forbidden(`this token's scope does not include the zone ${zone.name}`);
    return zone;
  }

  /** The RRsets of a body, checked and bounded; contents without placeholders canonical already. */
  async function parseRRsets(list: NonNullable<TemplateInput['rrsets']>): Promise<TemplateRRset[]> {
    // Counted before any is checked: a template never holds more than one zone may.
    const total = recordCount({ rrsets: list });
    if (total > maxRecords) throw Invalid.field('rrsets', `holds ${total} records; a template holds at most ${maxRecords} (MAX_RECORDS_PER_ZONE)`);
    const check = new FieldCheck();
    const seen = new Set<string>();
    const slice = slicer();
    const out: TemplateRRset[] = [];
    for (const [i, rs] of list.entries()) {
      await slice();
      const at = `rrsets.${i}`;
      const type = check.run(`${at}.record_type`, () => recordType(rs.record_type));
      const raw = rs.name ?? APEX;
      let name = raw;
      if (raw.length > MAX_NAME_LENGTH) check.fail(`${at}.name`, `must be at most ${MAX_NAME_LENGTH} characters`);
      else if (placeholders(raw).length === 0 && !raw.includes('{zone}')) name = check.run(`${at}.name`, () => normalizeRecordName(raw, 'template.invalid')) ?? raw;
      if (type?.type === 'NS' && rendersToApex(raw)) check.fail(`${at}.record_type`, 'the NS set at the apex is managed by zonedeck');
      const ttl = check.run(`${at}.ttl`, () => parseTtl(rs.ttl ?? '3600')) ?? 3600;
      if (rs.records.length === 0) check.fail(`${at}.records`, 'must hold at least one record');
      const records = rs.records.map((c, j) => {
        if (c.length > MAX_CONTENT) {
          check.fail(`${at}.records.${j}`, `must be at most ${MAX_CONTENT} characters`);
          return c;
        }
        if (!type || /\{[a-z][a-z0-9_]*\}/.test(c)) return c;
        return check.run(`${at}.records.${j}`, () => type.normalize(c)) ?? c;
      });
      const k = `${name.toLowerCase()} ${type?.type}`;
      if (seen.has(k)) check.fail(`${at}.name`, `${name} ${type?.type} is in the template already; put all its records in one RRset`);
      seen.add(k);
      out.push({ name, record_type: type?.type ?? rs.record_type, ttl, records });
    }
    check.done();
    return out;
  }

  /** A zone's records as template RRsets: disabled records and the apex NS set left out; its name becomes `{zone}`. */
  async function rrsetsOfZone(zone: DomainRow): Promise<TemplateRRset[]> {
    const sets = new Map<string, TemplateRRset>();
    const slice = slicer();
    for (const r of await store.records.byDomain(zone.id)) {
      await slice();
      if (r.disabled || (r.name === APEX && r.record_type === 'NS')) continue;
      const name = unfill(r.name, zone.name);
      const k = `${name} ${r.record_type}`;
      const content = unfill(r.content, zone.name);
      const set = sets.get(k);
      if (set) set.records.push(content);
      else sets.set(k, { name, record_type: r.record_type, ttl: r.ttl, records: [content] });
    }
    return [...sets.values()].sort((a, b) => a.name.localeCompare(b.name) || a.record_type.localeCompare(b.record_type));
  }

  /**
   * The work of an apply, counted before anything is built: the template's records in each zone
   * (at most MAX_RECORDS_PER_ZONE), and what the whole request builds, and in replace mode
   * removes, across its zones (at most MAX_RECORDS_PER_ZONE too: one request costs no more than
   * the largest write of one zone, however many zones it spreads over). The zone's records plus
   * what the apply adds are held to MAX_RECORDS_PER_ZONE by the change set, before it writes.
   */
  async function bound(t: TemplateRow, list: readonly DomainRow[], mode: ApplyMode): Promise<void> {
    const count = recordCount(t);
    if (count > maxRecords) throw Invalid.field('zones', `the template holds ${count} records, more than one zone may hold (${maxRecords}, MAX_RECORDS_PER_ZONE)`);
    let total = 0;
    for (const zone of list) total += count + (mode === 'replace' ? await store.records.zoneCount(zone.id) : 0);
    if (total > maxRecords) {
      const what = mode === 'replace' ? `${total} records (the template's ${count} in each of ${list.length} zones, and the zones' records it replaces)` : `${total} records (${count} in each of ${list.length} zones)`;
      throw Invalid.field('zones', `this apply would build ${what}; one request builds at most ${maxRecords} (MAX_RECORDS_PER_ZONE): apply it to fewer zones at a time`);
    }
  }

  const parseName = (raw: string | undefined): string => {
    const name = raw?.trim() ?? '';
    if (!TEMPLATE_NAME.test(name)) throw Invalid.field('name', 'must be 1–64 letters, digits, spaces, dots, hyphens or underscores');
    return name;
  };

  return {
    visible: (userId: number, id: number) => visible(store, userId, id),

    page: (userId: number, w: Window) => store.templates.page(userId, w),

    async create(asker: Asker, input: TemplateInput): Promise<TemplateRow> {
      unscoped(asker, 'create');
      const name = parseName(input.name);
      if ((input.rrsets === undefined) === (input.from_zone === undefined)) throw Invalid.field('rrsets', 'give either rrsets or from_zone');
      const rrsets = input.from_zone !== undefined ? await rrsetsOfZone(await zoneOf(asker, input.from_zone, 'from_zone')) : await parseRRsets(input.rrsets!);
      if (recordCount({ rrsets }) > maxRecords) throw Invalid.field('from_zone', `a template holds at most ${maxRecords} records (MAX_RECORDS_PER_ZONE)`);
      return store.transaction(async (tx) => {
        let teamId: number | null = null;
        if (input.team !== undefined) {
          const team = input.team.length <= 64 ? await tx.teams.byName(input.team.trim().toLowerCase()) : undefined;
          const member = team && (await tx.teams.member(team.id, asker.userId));
          if (!team || !member) throw Invalid.field('team', 'is not a team you belong to');
          if (!roleAtLeast(member.role, 'admin')) throw new Forbidden(`only an owner or admin of team ${team.name} may create its templates; your role is ${member.role}`);
          teamId = team.id;
        }
        if (await tx.templates.byName({ user_id: asker.userId, team_id: teamId }, name)) throw new Conflict(`a template named ${name} exists already`, { name: 'is taken' });
        const at = new Date().toISOString();
        return tx.templates.insert({ user_id: asker.userId, team_id: teamId, name, description: input.description ?? '', rrsets, created_at: at, updated_at: at });
      });
    },

    async update(asker: Asker, id: number, input: Omit<TemplateInput, 'team' | 'from_zone'>): Promise<TemplateRow> {
      unscoped(asker, 'change');
      const rrsets = input.rrsets === undefined ? undefined : await parseRRsets(input.rrsets);
      const name = input.name === undefined ? undefined : parseName(input.name);
      return store.transaction(async (tx) => {
        const t = await changeable(tx, asker.userId, id);
        if (name !== undefined && name !== t.name && (await tx.templates.byName(t, name))) throw new Conflict(`a template named ${name} exists already`, { name: 'is taken' });
        return tx.templates.update(t.id, { name, description: input.description, rrsets, updated_at: new Date().toISOString() });
      });
    },

    async remove(asker: Asker, id: number): Promise<TemplateRow> {
      unscoped(asker, 'delete');
      return store.transaction(async (tx) => {
        const t = await changeable(tx, asker.userId, id);
        await tx.templates.delete(t.id);
        return t;
      });
    },

    /** The builder a new zone's first change set runs: the template's records, and the zone remembers it. */
    async forNewZone(userId: number, id: number, raw: Record<string, unknown> | undefined) {
      const variables = parseVariables(raw);
      const t = await visible(store, userId, id).catch((e) => {
        throw e instanceof NotFound ? Invalid.field('template', 'is not a template you may use') : e;
      });
      // A template saved under a larger MAX_RECORDS_PER_ZONE than today's: refused before anything is built.
      const count = recordCount(t);
      if (count > maxRecords) throw Invalid.field('template', `holds ${count} records, more than one zone may hold (${maxRecords}, MAX_RECORDS_PER_ZONE)`);
      const build = templateBuild(t, variables, 'merge');
      return async (edit: Edit) => {
        await build(edit);
        await edit.tx.zoneTemplates.set({ domain_id: edit.zone.id, template_id: t.id, variables, applied_at: edit.now.toISOString() });
      };
    },

    /** Applies the template to these zones, one change set each under one batch (a dry run previews it). */
    async apply(asker: Asker, id: number, body: { zones: string[]; mode?: ApplyMode; variables?: Record<string, unknown> }, opts: WriteOptions): Promise<BatchResult> {
      const variables = parseVariables(body.variables);
      const t = await visible(store, asker.userId, id);
      const mode = body.mode ?? 'merge';
      const names = [...new Set(body.zones)];
      const list: DomainRow[] = [];
      for (const [i, name] of names.entries()) list.push(await zoneOf(asker, name, `zones.${i}`));
      await bound(t, list, mode);
      const jobs = list.map((zone) => ({
        zone,
        build: templateBuild(t, variables, mode),
        after: async (tx: ServiceRepos, z: DomainRow) => tx.zoneTemplates.set({ domain_id: z.id, template_id: t.id, variables, applied_at: new Date().toISOString() }),
      }));
      return batches.run(asker.userId, jobs, { ...opts, comment: opts.comment || `template ${t.name} (${mode})` });
    },

    /**
     * The zones that came from the template (those the asker may read), each with how it differs
     * from it now. One answer compares at most MAX_RECORDS_PER_ZONE records in all (a big template
     * applied to many zones, one request at a time, would otherwise make this read unbounded): the
     * zones past that are listed with `drifted: null`, to be asked one by one.
     */
    async zones(asker: Asker, id: number) {
      const t = await visible(store, asker.userId, id);
      const count = recordCount(t);
      let budget = maxRecords;
      const out = [];
      for (const { zone, variables, applied_at } of await store.zoneTemplates.zonesOf(t.id)) {
        if (!(await zones.owned(asker.userId, zone.name).catch(() => null))) continue;
        if (asker.scope && !allowsZone(asker.scope, zone.name)) continue;
        if (count > budget) {
          const problem = `not compared: one answer compares at most ${maxRecords} records (MAX_RECORDS_PER_ZONE); GET /domains/${zone.name}/template compares this zone`;
          out.push({ zone: zone.name, applied_at, variables, drifted: null, differences: [] as Difference[], problem });
          continue;
        }
        budget -= count;
        out.push({ zone: zone.name, applied_at, variables, ...(await drift(t, zone, variables)) });
      }
      return out;
    },

    /** The template a zone came from (or had applied last), with how the zone differs from it now; NotFound when none the asker may read. */
    async ofZone(asker: Asker, name: string) {
      const zone = await zoneOf(asker, name, 'name');
      const link = await store.zoneTemplates.ofDomain(zone.id);
      const t = link && (await visible(store, asker.userId, link.template_id).catch((e) => (e instanceof NotFound ? undefined : Promise.reject(e))));
      if (!link || !t) throw new NotFound(`${zone.name} did not come from a template you may read`);
      return { template: { id: t.id, name: t.name }, zone: zone.name, applied_at: link.applied_at, variables: link.variables, ...(await drift(t, zone, link.variables)) };
    },
  };

  /** How a zone differs from its template rendered with its variables: the RRsets whose records or TTL differ. */
  async function drift(t: TemplateRow, zone: DomainRow, variables: Record<string, string>) {
    const differences: Difference[] = [];
    let problem: string | undefined;
    try {
      const sets = await render(t, zone.name, variables, slicer());
      const rows = new Map<string, RecordRow[]>();
      for (const r of await store.records.atNames(zone.id, [...new Set(sets.map((s) => s.name))])) {
        if (r.disabled) continue;
        const k = `${r.name} ${r.record_type}`;
        const list = rows.get(k);
        if (list) list.push(r);
        else rows.set(k, [r]);
      }
      for (const s of sets) {
        const have = rows.get(`${s.name} ${s.type}`) ?? [];
        const actual = have.map((r) => r.content).sort();
        const expected = [...s.records].sort();
        const ttlDiffers = have.length > 0 && have[0]!.ttl !== s.ttl;
        if (ttlDiffers || actual.join('\n') !== expected.join('\n')) differences.push({ name: s.name, record_type: s.type, expected, actual, ...(ttlDiffers ? { ttl: [s.ttl, have[0]!.ttl] as [number, number] } : {}) });
      }
    } catch (e) {
      if (!(e instanceof Invalid || e instanceof RuleError)) throw e;
      problem = e.message;
    }
    return { drifted: differences.length > 0 || problem !== undefined, differences, ...(problem ? { problem } : {}) };
  }
}

export type Templates = ReturnType<typeof createTemplates>;
